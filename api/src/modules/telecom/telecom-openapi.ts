/**
 * OpenAPI shapes of the telecom partner API (shop-key bearer): what a partner integration reads.
 * They also serialize the answers, so nothing outside them (a secret added to a row by mistake)
 * can leave the API through these routes.
 */
import { CALLER_ID_FORMATS, SWITCHBOARD_STATUSES } from '@tongdai/contracts';

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
const nullable = (type: string) => ({ type: [type, 'null'] });
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', properties, required, additionalProperties: false });
const destination = { type: ['object', 'null'], properties: { type: str, target: str }, additionalProperties: false };
const meta = obj({ page: int, per_page: int, total: int });

export const switchboardShape = obj({
  id: int, name: str, carrier: { type: 'string', enum: ['viettel', 'vnpt', 'mobifone', 'fpt', 'cmc', 'other'] }, host: str, port: int,
  transport: { type: 'string', enum: ['udp', 'tcp'] }, caller_id_format: { type: 'string', enum: [...CALLER_ID_FORMATS], description: 'How the caller ID is written to the carrier: national 0…, international 84…, e164 +84…' }, auth_user: str, has_password: bool, register: bool, register_interval: int,
  max_channels: int, codecs: { type: 'array', items: str }, enabled: bool, description: str,
  status: { type: 'string', enum: [...SWITCHBOARD_STATUSES] }, status_reason: str, status_at: nullable('string'),
  channels_in_use: int, hotlines: int, created_at: str, updated_at: str,
});

export const hotlineShape = obj({
  id: int, number: { type: 'string', description: 'Stored form: 84… (1800/1900 numbers as such)' },
  kind: { type: 'string', enum: ['tollfree', 'premium', 'landline', 'mobile'] }, carrier: str, switchboard_id: int, switchboard_name: str,
  switchboard_status: str, destination, active: bool, description: str, calls_today: int, channels_in_use: int,
  advertising_identity: { type: 'boolean', description: 'Registered as a "tên định danh" for advertising calls (Decree 91)' }, advertising_name: str,
  advertising_registered_on: { type: ['string', 'null'], description: 'YYYY-MM-DD' },
  max_calls_per_minute: { type: ['integer', 'null'], description: 'Calls the campaign dialer may start through it in any 60 s; null: no cap' }, created_at: str,
});

export const callLogShape = obj({
  id: int, started_at: str, direction: { type: 'string', enum: ['inbound', 'outbound', 'internal'] }, caller: str, callee: str, did: nullable('string'),
  path: { type: 'array', items: obj({ type: str, name: str }) },
  answered_by: { type: ['object', 'null'], properties: { extension: str, name: str }, additionalProperties: false },
  wait: int, billsec: int, result: str, reason: str,
  customer: { type: ['object', 'null'], properties: { id: int, name: str, phone: str }, additionalProperties: false },
});

const dayParam = { type: 'string', description: 'YYYY-MM-DD (Vietnam day)' };

export const PARTNER_DOCS = {
  switchboards: {
    summary: "The shop's switchboards (carrier SIP trunks)",
    description: 'Every switchboard of the tenant the shop key belongs to, with its live registration status and channels in use. Passwords are never answered (has_password says whether one is set).',
    response: { 200: obj({ data: { type: 'array', items: switchboardShape } }) },
  },
  hotlines: {
    summary: "The shop's hotlines",
    description: 'Numbers the tenant owns through its switchboards: kind, carrier, switchboard, inbound destination, calls today (Vietnam day), channels in use on its switchboard.',
    response: { 200: obj({ data: { type: 'array', items: hotlineShape } }) },
  },
  callLogs: {
    summary: 'Calls through the hotlines',
    description: 'Calls in and out through the tenant\'s hotlines, newest first. hotline_id: one hotline (default: all); from/to: Vietnam days YYYY-MM-DD, both included (default: today, at most 366 days); page/per_page (≤ 100). A wrong filter is a 400 whose message names it.',
    querystring: { type: 'object', properties: { hotline_id: str, from: dayParam, to: dayParam, page: str, per_page: str } },
    response: { 200: obj({ data: { type: 'array', items: callLogShape }, meta }) },
  },
};
