import { useState, type ReactElement } from 'react';
import { notify, toApiError } from '@tongdai/platform';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * Delete with confirmation, the one way every list does it: `ask(row)` opens the dialog,
 * confirming runs `remove`, then a success toast or the API's Vietnamese message.
 */
export function useConfirmDelete<T>(opts: {
  remove: (row: T) => Promise<unknown>;
  title: string;
  message: (row: T) => string;
  success: string;
}): { ask: (row: T) => void; dialog: ReactElement } {
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (target === null) return;
    setBusy(true);
    try {
      await opts.remove(target);
      notify('success', opts.success);
    } catch (e) {
      notify('error', (await toApiError(e)).message);
    } finally {
      setBusy(false);
      setTarget(null);
    }
  };
  const dialog = (
    <ConfirmDialog
      open={target !== null}
      title={opts.title}
      message={target === null ? '' : opts.message(target)}
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={() => setTarget(null)}
    />
  );
  return { ask: setTarget, dialog };
}
