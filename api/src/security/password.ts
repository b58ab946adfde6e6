import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id baseline (FIELD-NOTES "Security anchors"): 19 MiB, 2 passes, 1 lane. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** @node-rs/argon2 defaults to argon2id; the test asserts the `$argon2id$` prefix. */
export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** Verified against for unknown users so a miss costs as long as a wrong password. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('tongdai-dummy-password-for-timing');
  return dummy;
}
