import { registerTranslations } from '@tongdai/platform';

export const NS = 'softphone';
registerTranslations(NS, {
  title: 'Điện thoại',
  notConnected: 'Chưa kết nối tổng đài',
  offline: 'Ngoại tuyến',
  registerFailed: 'Không đăng ký được với tổng đài',
  ended: 'Cuộc gọi đã kết thúc',
  failed: 'Cuộc gọi thất bại',
});
