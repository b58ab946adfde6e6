// npm start: install what is needed, build the frontends, run the whole product on embedded defaults.
import { ensureBuilt, ensureInstalled } from './lib/build.mjs';
import { ensureSystemPackages } from './lib/system.mjs';

// Kamailio and rtpengine, from the same list and in the same way as npm test: as root they are
// installed, so the first run can place calls; otherwise we say what to install and run without SIP.
const stillMissing = ensureSystemPackages('start');
ensureInstalled();
ensureBuilt();
const { startStack } = await import('./lib/stack.mjs');
const webPort = Number(process.env.WEB_PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? 4000);
// The demo carrier listens on loopback: this development stack lets tenants' switchboards use
// 127.0.0.1 through the operator's own setting (ADR 0043), which a deployment leaves unset or sets
// to its carriers' leased-line networks. TRUNK_ALLOWED_NETWORKS in the shell replaces it.
const trunkAllowedNetworks = process.env.TRUNK_ALLOWED_NETWORKS ?? '127.0.0.1/32';
// Supervised: a dead API, Kamailio, media worker or demo carrier is started again (issue 41).
const stack = await startStack({ webPort, apiPort, databaseUrl: process.env.DATABASE_URL, demoCarrier: true, trunkAllowedNetworks, supervise: true });

// The softphone needs Kamailio; without it everything else still works, and we say how to get it.
function sipLine() {
  if (stack.sip) return `SIP:         ${stack.sip.wsUrl} (WebSocket), udp 127.0.0.1:${stack.sip.udpPort}; máy nhánh demo 101, 102`;
  if (stillMissing.length) return `SIP:         thiếu ${stillMissing.join(', ')}, softphone sẽ ngoại tuyến. Cài bằng: sudo apt-get install -y --no-install-recommends ${stillMissing.join(' ')}`;
  return `SIP:         Kamailio không khởi động được (${stack.sipError?.split('\n')[0]}), softphone sẽ ngoại tuyến`;
}

// Greetings, IVR menus and queue music need the media worker (it runs beside Kamailio).
function mediaLine() {
  const address = stack.sip?.mediaAddress();
  if (address) return `Âm thanh:    máy chủ phát lời chào, IVR, nhạc chờ tại udp ${address}`;
  return 'Âm thanh:    máy chủ phát lời chào, IVR, nhạc chờ chưa chạy (cần Kamailio); các bước đó trả 480';
}

// The demo carrier (dev tooling, ADR 0037): a stand-in for the phone network on loopback.
function carrierLines() {
  const c = stack.sip?.demoCarrier();
  if (!c) return '';
  return `
  Nhà mạng demo (giả lập, không phải nhà mạng thật): udp ${c.address}, nhật ký ${c.log}
    Gọi số di động (vd 0912345678) từ softphone: nghe lời chào tiếng Việt của nhà mạng demo.
    Gọi vào hotline demo 02873001234: curl -XPOST ${c.controlUrl}/call -H 'content-type: application/json' -d '{"to":"02873001234","from":"0987654321"}'
    Các cuộc gọi nhà mạng đã nhận/gọi: curl ${c.controlUrl}/calls
`;
}

console.log(`
  Tongdai đang chạy
  ─────────────────────────────────────────────
  Giao diện:   ${stack.webUrl}
  API:         ${stack.apiUrl}   (tài liệu: ${stack.apiUrl}/docs)
  CSDL:        ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite nhúng trong .data/pglite'}
  ${sipLine()}
  ${mediaLine()}
${carrierLines()}
  Đăng nhập thử (mã doanh nghiệp / tên đăng nhập / mật khẩu):
    demo / admin    / Admin@123      (super-admin)
    demo / nhanvien / Nhanvien@123   (nhân viên, quyền hạn chế)
    abc  / admin    / Admin@123

  Ctrl+C để dừng.
`);

const shutdown = async () => { await stack.stop(); process.exit(0); };
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
