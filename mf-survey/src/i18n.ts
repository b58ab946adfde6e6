import { entityStrings } from '@tongdai/contracts';
import { registerTranslations } from '@tongdai/platform';

/** Strings of the survey screens (own namespace, ADR 0005). */
export const NS = 'survey';

registerTranslations(NS, {
  area: 'Khảo sát & Chiến dịch',
  updated: 'Đã lưu thay đổi',
  active: 'Đang dùng',
  inactive: 'Ngừng dùng',
  category: entityStrings('danh mục khảo sát', 'Danh mục khảo sát', 'tên, mô tả'),
  question: {
    ...entityStrings('câu hỏi', 'Câu hỏi khảo sát', 'nội dung câu hỏi'),
    allCategories: 'Tất cả danh mục',
    chooseCategory: '— Chọn danh mục —',
    up: 'Lên',
    down: 'Xuống',
    moveUp: 'Chuyển câu hỏi "{{text}}" lên trên',
    moveDown: 'Chuyển câu hỏi "{{text}}" xuống dưới',
    preview: 'Xem trước',
    previewTitle: 'Xem trước khảo sát "{{name}}"',
    previewHint: 'Chọn một danh mục để xem trước các câu hỏi của nó',
    previewEmpty: 'Danh mục này chưa có câu hỏi nào',
    check: 'Kiểm tra câu trả lời',
    checked: 'Câu trả lời hợp lệ',
    close: 'Đóng',
    addOption: 'Thêm lựa chọn',
    removeOption: 'Xoá lựa chọn {{n}}',
    optionPlaceholder: 'Lựa chọn {{n}}',
    previewEmptyText: 'Nội dung câu hỏi sẽ hiện ở đây',
    requiredMark: 'Bắt buộc',
  },
  answer: {
    yes: 'Có',
    no: 'Không',
    number: 'Nhập số',
    text: 'Nhập câu trả lời',
    ratingLow: 'Rất không hài lòng',
    ratingHigh: 'Rất hài lòng',
  },
  fields: {
    name: 'Tên danh mục',
    description: 'Mô tả',
    active: 'Trạng thái',
    question_count: 'Số câu hỏi',
    category_id: 'Danh mục',
    kind: 'Loại câu hỏi',
    text: 'Nội dung câu hỏi',
    options: 'Các lựa chọn',
    required: 'Bắt buộc',
    position: 'Thứ tự',
    preview: 'Xem trước (như điện thoại viên thấy)',
  },
});
