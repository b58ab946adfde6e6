import { expect, test } from '../support/fixtures.ts';
import { ABC, DEMO, LoginPage } from '../pages/LoginPage.ts';
import { API_URL } from '../support/ports.ts';

async function tokenOf(request: import('@playwright/test').APIRequestContext, c: typeof DEMO) {
  const res = await request.post(`${API_URL}/identity/login/tenant`, { data: { ma_dn: c.maDn, username: c.username, password: c.password } });
  expect(res.status()).toBe(200);
  return (await res.json()).data.token as string;
}

test("a user of tenant abc cannot read demo's customer by id", async ({ page, request }) => {
  const demo = await tokenOf(request, DEMO);
  const list = await request.get(`${API_URL}/t/demo/customers?per_page=1`, { headers: { Authorization: `Bearer ${demo}` } });
  const victim = (await list.json()).data[0];

  const abc = await tokenOf(request, ABC);
  const byId = await request.get(`${API_URL}/t/abc/customers/${victim.id}`, { headers: { Authorization: `Bearer ${abc}` } });
  expect(byId.status()).toBe(404);
  const body = await byId.text();
  expect(body).not.toContain(victim.name);
  expect(JSON.parse(body).code).toBe('NOT_FOUND');

  const otherPath = await request.get(`${API_URL}/t/demo/customers/${victim.id}`, { headers: { Authorization: `Bearer ${abc}` } });
  expect([401, 403]).toContain(otherPath.status());
  expect(await otherPath.text()).not.toContain(victim.name);

  // And in the browser: the edit screen of that id shows "not found", no data.
  await new LoginPage(page).loginAs(ABC, `/customer/edit/${victim.id}`);
  await expect(page.getByTestId('error-state')).toContainText('Không tìm thấy dữ liệu');
  await expect(page.getByText(victim.name)).toHaveCount(0);
});
