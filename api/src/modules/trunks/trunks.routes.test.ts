import { NO_ANSWER, registrationReason } from './trunks.routes';

describe("a registration's outcome as the tenant reads it (issue 32)", () => {
  it('says the same for silence and a refused connection: nothing tells what listens at an address', () => {
    for (const raw of ['', 'timeout', 'refused', 'unreachable', '408 Request Timeout', '477 Unfortunately error on sending to next hop occurred']) {
      expect(registrationReason(raw)).toBe(NO_ANSWER);
    }
    expect(NO_ANSWER).toBe('Nhà mạng không phản hồi');
  });

  it("keeps a real carrier's code and phrase", () => {
    expect(registrationReason('401 Unauthorized')).toBe('Sai tài khoản hoặc mật khẩu xác thực (401 Unauthorized)');
    expect(registrationReason('403 Forbidden')).toBe('Nhà mạng từ chối đăng ký (403 Forbidden)');
    expect(registrationReason('503 Service Unavailable')).toBe('Nhà mạng trả lời 503 Service Unavailable');
    expect(registrationReason('481 Call/Transaction Does Not Exist\u0000')).toBe('Nhà mạng trả lời 481 Call/Transaction Does Not Exist');
  });
});
