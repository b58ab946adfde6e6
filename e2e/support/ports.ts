/** Ports of the e2e stack: apart from `npm start`'s so both can run at once. */
export const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);
export const API_PORT = Number(process.env.E2E_API_PORT ?? 4100);
export const CONTROL_PORT = Number(process.env.E2E_CONTROL_PORT ?? 4199);
export const API_URL = `http://127.0.0.1:${API_PORT}`;
