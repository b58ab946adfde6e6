import { newServiceAccount, startSheetsStandIn } from '@tongdai/testkit/google-sheets';

/**
 * The stand-in of Google for the e2e stack (issue 33): one for every worker's API (GOOGLE_SHEETS_ENDPOINT),
 * with the service account whose key file a spec pastes on /setting/google-sheet (E2E_GOOGLE_ACCOUNT:
 * global setup's environment reaches the workers).
 */
export const E2E_SHEET = { id: 'e2e-danh-ba', tab: 'Khách hàng' };

export async function startE2eSheets() {
  const account = newServiceAccount('tongdai-e2e@du-an.iam.gserviceaccount.com');
  const standIn = await startSheetsStandIn([account], {
    [E2E_SHEET.id]: {
      [E2E_SHEET.tab]: [
        ['Họ và tên', 'Điện thoại', 'Quận'],
        ['Phạm Minh Khoa', '0912345701', 'Quận 1'],
        ['Võ Thị Lan', '84912345702', 'Quận 3'],
        ['Đặng Văn Minh', '+84 912 345 703', 'Thủ Đức'],
        ['Số sai', '12ab', ''],
      ],
    },
  });
  process.env.E2E_GOOGLE_ACCOUNT = account.json;
  return standIn;
}
