import { registerTranslations } from '@tongdai/platform';

export const NS = 'host';
registerTranslations(NS, {
  product: 'Tongdai',
  login: {
    title: 'Đăng nhập',
    subtitle: 'Tổng đài ảo & chăm sóc khách hàng',
    maDn: 'Mã doanh nghiệp',
    username: 'Tên đăng nhập',
    password: 'Mật khẩu',
    submit: 'Đăng nhập',
    submitting: 'Đang đăng nhập…',
  },
  shell: {
    dashboard: 'Tổng quan',
    darkMode: 'Chế độ tối',
    logout: 'Đăng xuất',
    menu: 'Điều hướng',
    notFound: 'Không tìm thấy trang',
    notFoundHint: 'Đường dẫn không tồn tại hoặc bạn không có quyền truy cập.',
    remoteDown: 'Không tải được phân hệ "{{title}}"',
    remoteDownHint: 'Phân hệ này tạm thời không truy cập được. Các chức năng khác vẫn hoạt động bình thường.',
    loadingArea: 'Đang tải phân hệ…',
  },
  dashboard: {
    hello: 'Xin chào, {{name}}',
    tenant: 'Doanh nghiệp: {{name}} ({{code}})',
    role: 'Vai trò: {{role}}',
    customers: 'Khách hàng',
    customersTotal: 'Tổng số khách hàng',
    areas: 'Chức năng của bạn',
    open: 'Mở',
  },
  remotes: {
    mf_crm: 'Khách hàng & Tổ chức',
    mf_pbx: 'Tổng đài',
    mf_reports: 'Báo cáo',
    mf_survey: 'Khảo sát & Chiến dịch',
    mf_softphone: 'Điện thoại',
  },
});
