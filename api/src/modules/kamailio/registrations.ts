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

  /** A REGISTER Kamailio saved: registered for `expires` more seconds (0 = unregistered). */
  report(domain: string, extension: string, expires: number): void {
    const key = domain.toLowerCase();
    let exts = this.byDomain.get(key);
    if (!exts) {
      exts = new Map();
      this.byDomain.set(key, exts);
    }
    if (expires > 0) exts.set(extension, this.now() + expires * 1000);
    else exts.delete(extension);
  }

  /** Extensions of the domain registered now. */
  registered(domain: string): Set<string> {
    const out = new Set<string>();
    const exts = this.byDomain.get(domain.toLowerCase());
    if (!exts) return out;
    const now = this.now();
    for (const [ext, until] of exts) {
      if (until > now) out.add(ext);
      else exts.delete(ext);
    }
    return out;
  }
}
