import { createVerifier } from 'fast-jwt';
import { createStringeeTokens, stringeeKeyFromEnv, STRINGEE_TOKEN_TTL_S } from './stringee-token';

const decodeHeader = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString());

describe('Stringee access token', () => {
  it("carries Stringee's documented header and claims, signed HS256 with the key secret", () => {
    const token = createStringeeTokens({ sid: 'SK.0.abc', secret: 'key-secret' })('demo_101', 1_700_000_000);
    expect(decodeHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT', cty: 'stringee-api;v=1' });
    const claims = createVerifier({ key: 'key-secret', algorithms: ['HS256'], clockTimestamp: 1_700_000_000_000 })(token);
    expect(claims).toEqual({ jti: 'SK.0.abc-1700000000', iss: 'SK.0.abc', exp: 1_700_000_000 + STRINGEE_TOKEN_TTL_S, userId: 'demo_101' });
    expect(() => createVerifier({ key: 'other', algorithms: ['HS256'] })(token)).toThrow();
  });
  it('takes the key from the environment, else a development key derived from the deployment secret', () => {
    const derive = jest.fn(() => Buffer.alloc(32, 1));
    expect(stringeeKeyFromEnv({ STRINGEE_API_KEY_SID: 'SK.1', STRINGEE_API_KEY_SECRET: 's' }, derive)).toEqual({ sid: 'SK.1', secret: 's' });
    expect(stringeeKeyFromEnv({}, derive)).toEqual({ sid: 'SK.tongdai-dev', secret: Buffer.alloc(32, 1) });
    expect(derive).toHaveBeenCalledWith('stringee-api-key');
  });
});
