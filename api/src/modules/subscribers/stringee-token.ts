import { createSigner } from 'fast-jwt';

/** A Stringee API key: its sid (SK…) and secret, from the Stringee dashboard. */
export interface StringeeKey {
  sid: string;
  secret: string | Buffer;
}

/** How long a softphone's SDK token lives; the SDK asks for a new one (`requestnewtoken`). */
export const STRINGEE_TOKEN_TTL_S = 3600;

/**
 * The key from STRINGEE_API_KEY_SID / STRINGEE_API_KEY_SECRET; without them a development key
 * derived from the deployment secret, so tokens are still real, verifiable JWTs.
 */
export function stringeeKeyFromEnv(env: NodeJS.ProcessEnv, derive: (purpose: string) => Buffer): StringeeKey {
  if (env.STRINGEE_API_KEY_SID && env.STRINGEE_API_KEY_SECRET) return { sid: env.STRINGEE_API_KEY_SID, secret: env.STRINGEE_API_KEY_SECRET };
  return { sid: 'SK.tongdai-dev', secret: derive('stringee-api-key') };
}

/**
 * The client access token of Stringee's documentation: HS256 signed with the API key secret,
 * header `cty: stringee-api;v=1`, claims jti, iss (the key sid), exp and userId.
 */
export function createStringeeTokens(key: StringeeKey) {
  const sign = createSigner({ key: key.secret, algorithm: 'HS256', header: { alg: 'HS256', typ: 'JWT', cty: 'stringee-api;v=1' }, noTimestamp: true });
  return (userId: string, now = Math.floor(Date.now() / 1000)): string =>
    sign({ jti: `${key.sid}-${now}`, iss: key.sid, exp: now + STRINGEE_TOKEN_TTL_S, userId });
}
