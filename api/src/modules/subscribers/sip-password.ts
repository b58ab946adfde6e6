import { randomBytes } from 'node:crypto';
import { SIP_PASSWORD_LENGTH } from '@tongdai/contracts';

// Letters and digits only: the password travels in SIP digest headers and Kamailio's HTTP
// lookup, where quotes, spaces or & would need escaping everywhere.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random SIP password; rejection sampling keeps every character equally likely. */
export function generateSipPassword(length = SIP_PASSWORD_LENGTH): string {
  const limit = 256 - (256 % ALPHABET.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit && out.length < length) out += ALPHABET[b % ALPHABET.length];
    }
  }
  return out;
}
