import { useQuery } from '@tanstack/react-query';
import type { DirectoryEntry } from '@tongdai/contracts';

/**
 * The tenant's extensions with their owners' names (transfer targets, and who an internal caller
 * is). One cache entry for the whole softphone; loaded as soon as the phone has an account.
 */
export function useDirectory(load: () => Promise<DirectoryEntry[]>, enabled: boolean) {
  return useQuery({ queryKey: ['softphone', 'directory'], queryFn: load, enabled, staleTime: 60_000, retry: false });
}

/** The colleague behind a number, when the number is one of the tenant's extensions. */
export const colleagueOf = (entries: DirectoryEntry[] | undefined, number: string | undefined): DirectoryEntry | undefined =>
  number ? entries?.find((x) => x.extension === number) : undefined;
