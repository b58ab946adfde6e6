/**
 * The Vietnamese strings every list/form area declares in its own i18n namespace (`one` = the
 * object, lower case; `nav` = its menu label; `searchBy` = what the search box looks in). Here, not
 * in @tongdai/ui, because manifests read them for navigation before any screen code loads.
 */
export const entityStrings = (one: string, nav: string, searchBy: string) => ({
  nav,
  listTitle: `Danh sách ${one}`,
  addTitle: `Thêm ${one}`,
  editTitle: `Sửa ${one}`,
  add: `Thêm ${one}`,
  searchPlaceholder: `Tìm theo ${searchBy}`,
  empty: `Chưa có ${one} nào`,
  created: `Đã thêm ${one}`,
  deleted: `Đã xoá ${one}`,
  confirmDeleteTitle: `Xoá ${one}`,
  confirmDelete: `Bạn có chắc muốn xoá ${one} "{{name}}"? Thao tác này không thể hoàn tác.`,
});
