import { expect, type Page } from '@playwright/test';
import { API_URL } from '../support/ports.ts';

export interface NewTenant {
  company_name: string;
  ma_dn: string;
  full_name: string;
  username: string;
  email: string;
  phone: string;
  password: string;
}

/** A tenant code nobody else uses in this run: specs stay independent of each other. */
export function newTenant(prefix: string): NewTenant {
  const code = `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  return {
    company_name: `Công ty Kiểm Thử ${code}`,
    ma_dn: code,
    full_name: 'Phạm Thị Quản Trị',
    username: 'quantri',
    email: `quantri@${code}.vn`,
    phone: '0912345678',
    password: 'MatKhau@2026',
  };
}

/** Sign-up through the API (for specs that need a tenant of their own), then a bearer token. */
export async function signupViaApi(t: NewTenant): Promise<string> {
  const res = await fetch(`${API_URL}/identity/signup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...t, password_confirmation: t.password }),
  });
  if (res.status !== 201) throw new Error(`signup ${res.status}: ${await res.text()}`);
  const login = await fetch(`${API_URL}/identity/login/tenant`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ma_dn: t.ma_dn, username: t.username, password: t.password }),
  });
  return ((await login.json()) as { data: { token: string } }).data.token;
}

export class SignupPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/signup');
    await expect(this.page.getByTestId('signup-form')).toBeVisible();
  }

  field(name: keyof NewTenant | 'password_confirmation') {
    return this.page.getByTestId(`signup-${name.replace(/_/g, '-')}`);
  }

  error(name: keyof NewTenant | 'password_confirmation') {
    return this.page.getByTestId(`signup-error-${name.replace(/_/g, '-')}`);
  }

  async fill(t: Partial<NewTenant> & { password_confirmation?: string }) {
    for (const [k, v] of Object.entries(t)) await this.field(k as keyof NewTenant).fill(v);
  }

  async submit() {
    await this.page.getByTestId('signup-submit').click();
  }
}
