import type { DirectoryEntry } from '@tongdai/contracts';
import { ColleagueCard } from './ColleagueCard';
import { CustomerCard } from './CustomerCard';

/**
 * Who the other side is: one of the tenant's extensions (a colleague, never a "new customer"),
 * otherwise the CRM customer found by the number.
 */
export function CallerCard({ number, colleague, onClose }: { number: string; colleague?: DirectoryEntry; onClose: () => void }) {
  return colleague ? <ColleagueCard colleague={colleague} onClose={onClose} /> : <CustomerCard number={number} onClose={onClose} />;
}
