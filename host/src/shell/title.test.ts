import { pageTitle, remoteScreenLabel } from './title';

const noop = () => Promise.resolve({ default: () => null });
const manifest = (nav: [string, string][], routes: string[]) => ({
  routes: routes.map((path) => ({ path, loader: noop })),
  nav: nav.map(([path, label]) => ({ path, label, icon: 'x' })),
});
const crm = manifest([['/roles', 'Vai trò & phân quyền'], ['/accounts', 'Tài khoản'], ['/branchs', 'Chi nhánh']],
  ['/roles', '/role/add', '/role/edit/:id', '/accounts', '/account/add', '/account/edit/:id', '/branchs', '/branch/add']);
const pbx = manifest([['/time-groups', 'Nhóm thời gian'], ['/list-of-blocked-incoming-numbers', 'Chặn số gọi vào'], ['/list-of-blocked-out-numbers', 'Chặn số gọi ra']],
  ['/time-groups', '/time-groups/add', '/time-groups/edit/:id/:detailId', '/list-of-blocked-incoming-numbers', '/list-of-blocked-out-numbers']);
const telecom = manifest([['/etelecom/switchboards', 'Tổng đài nhà mạng'], ['/etelecom/create-hotline', 'Thêm hotline'], ['/etelecom/list-hotline', 'Hotline']],
  ['/etelecom/switchboards', '/etelecom/create-hotline', '/etelecom/list-hotline']);
const label = (path: string) => remoteScreenLabel([crm, pbx, telecom], path, { add: 'Thêm mới', edit: 'Sửa' });

describe('document titles from the manifests', () => {
  it('names a screen after its area, with add and edit told apart', () => {
    expect(label('/roles')).toBe('Vai trò & phân quyền');
    expect(label('/role/add')).toBe('Thêm mới – Vai trò & phân quyền');
    expect(label('/account/edit/12')).toBe('Sửa – Tài khoản');
    expect(label('/branch/add')).toBe('Thêm mới – Chi nhánh');
    expect(label('/time-groups/edit/3/9')).toBe('Sửa – Nhóm thời gian');
    expect(label('/list-of-blocked-out-numbers')).toBe('Chặn số gọi ra');
    expect(label('/khong-co')).toBeNull();
  });

  it('a screen with its own nav entry takes that one, not its neighbour\'s under the same first segment', () => {
    expect(label('/etelecom/switchboards')).toBe('Tổng đài nhà mạng');
    expect(label('/etelecom/create-hotline')).toBe('Thêm hotline');
    expect(label('/etelecom/list-hotline')).toBe('Hotline');
  });

  it('appends the product name', () => {
    expect(pageTitle('Tài khoản')).toBe('Tài khoản · Tongdai');
    expect(pageTitle(null)).toBe('Tongdai');
  });
});
