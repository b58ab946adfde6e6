/**
 * Which extensions are registered, as Kamailio reports them after each REGISTER it saved (and
 * unregisters with expires 0). Entries lapse on their own at their expiry, so a lost report or a
 * Kamailio restart corrects itself within one registration period. Kamailio's usrloc stays the
 * authority when a call is placed: a target that is not registered there is skipped.
 */
export class Registrations {
  /** domain → extension → expiry (ms since epoch). */
  private readonly byDomain = new Map<string, Map<string, number>>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * A REGISTER Kamailio saved: registered for `expires` more seconds (0 = unregistered). Says
   * whether it began or ended a registration ('refreshed': it was registered and still is).
   */
  report(domain: string, extension: string, expires: number): 'registered' | 'unregistered' | 'refreshed' | 'none' {
    const key = domain.toLowerCase();
    let exts = this.byDomain.get(key);
    if (!exts) {
      exts = new Map();
      this.byDomain.set(key, exts);
    }
    const until = exts.get(extension);
    const was = until !== undefined && until > this.now();
    if (expires > 0) exts.set(extension, this.now() + expires * 1000);
    else exts.delete(extension);
    return expires > 0 ? (was ? 'refreshed' : 'registered') : was ? 'unregistered' : 'none';
  }

  /** Registrations that ran out since the last call (nobody refreshed them): removed, with the instant they ended. */
  lapsed(): { domain: string; extension: string; at: Date }[] {
    const out: { domain: string; extension: string; at: Date }[] = [];
    const now = this.now();
    for (const [domain, exts] of this.byDomain) {
      for (const [extension, until] of exts) {
        if (until > now) continue;
        out.push({ domain, extension, at: new Date(until) });
        exts.delete(extension);
      }
    }
    return out;
  }

  /** Extensions of the domain registered now. */
  registered(domain: string): Set<string> {
    const out = new Set<string>();
    const exts = this.byDomain.get(domain.toLowerCase());
    if (!exts) return out;
    const now = this.now();
    for (const [ext, until] of exts) {
      // Lapsed entries stay until lapsed() collects them (their end is recorded as activity).
      if (until > now) out.add(ext);
    }
    return out;
  }
}
