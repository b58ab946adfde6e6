import { startTestApp, type TestApp, demoHeaders } from '../../../test/helpers';

/**
 * Click-to-call from the customer screens (issue 15): the list and the detail show the number
 * masked while the tenant hides numbers; GET /customers/:id/dial gives the softphone the number to
 * dial, for a customer of the caller's own tenant only.
 */
describe('GET /customers/:id/dial', () => {
  let t: TestApp;
  let h: Awaited<ReturnType<typeof demoHeaders>>;
  beforeAll(async () => {
    t = await startTestApp();
    h = await demoHeaders(t.app);
  });
  afterAll(() => t.close());
  const get = (url: string, headers = h.staff) => t.app.inject({ url, headers });
  const hideNumbers = (on: 0 | 1) =>
    t.app.inject({
      method: 'PUT', url: '/t/demo/update-system-setting', headers: h.admin,
      payload: { hidden_phone_customer: on, position_hidden_phone_customer: 0, show_popup_customer: 1, voice_over_internet_protocol: 1 },
    });

  it('answers the real number while the list shows it masked', async () => {
    const plain = (await get('/t/demo/customers')).json().data[0] as { id: number; phone: string };
    expect(plain.phone).toMatch(/^0\d{9}$/);
    expect((await hideNumbers(1)).statusCode).toBe(200);
    const masked = (await get('/t/demo/customers')).json().data[0];
    expect(masked).toMatchObject({ id: plain.id, phone: expect.stringContaining('***') });
    const dial = await get(`/t/demo/customers/${plain.id}/dial`);
    expect([dial.statusCode, dial.json()]).toEqual([200, { data: { number: plain.phone } }]);
    await hideNumbers(0);
  });

  it("is tenant-checked: another tenant's customer is not found, another tenant's session is refused", async () => {
    const id = (await get('/t/demo/customers')).json().data[0].id;
    const foreign = await get(`/t/abc/customers/${id}/dial`, h.abcAdmin);
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, 'NOT_FOUND']);
    expect((await get(`/t/demo/customers/${id}/dial`, h.abcAdmin)).statusCode).toBe(401);
    expect((await get('/t/demo/customers/999999/dial')).statusCode).toBe(404);
  });
});
