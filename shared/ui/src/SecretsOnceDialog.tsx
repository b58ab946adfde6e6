import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { CopyRegular } from '@fluentui/react-icons';
import { notify } from '@tongdai/platform';

/** The words of a SecretsOnceDialog (each area says them in its own namespace). */
export interface SecretsOnceLabels {
  warning: string;
  detail: string;
  secret: string;
  webhookSecret: string;
  close: string;
  copy: string;
  copied: string;
  copyFailed: string;
}

/** A secret to copy: read-only, selected on focus, with its copy button. */
function SecretField({ label, value, testId, labels }: { label: string; value: string; testId: string; labels: SecretsOnceLabels }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify('success', labels.copied);
    } catch {
      notify('error', labels.copyFailed);
    }
  };
  return (
    <Field label={label}>
      <Input
        readOnly value={value} data-testid={testId} onFocus={(e) => e.target.select()}
        contentAfter={<Button appearance="transparent" size="small" icon={<CopyRegular />} onClick={() => void copy()}>{labels.copy}</Button>}
      />
    </Field>
  );
}

/**
 * Secrets right after they are made (an API key and its webhook signing secret on create; a new
 * signing secret). The API never answers them again, so the dialog closes only through its button
 * (no click outside) and they are dropped with it. Voice-OTP's keys and the CRM's keys show it.
 */
export function SecretsOnceDialog({ title, secret, webhookSecret, onClose, labels }: { title: string; secret?: string; webhookSecret: string; onClose: () => void; labels: SecretsOnceLabels }) {
  return (
    <Dialog open modalType="alert">
      <DialogSurface data-testid="otp-key-once">
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
            <MessageBar intent="warning">
              <MessageBarBody><MessageBarTitle>{labels.warning}</MessageBarTitle>{labels.detail}</MessageBarBody>
            </MessageBar>
            {secret && <SecretField label={labels.secret} value={secret} testId="otp-key-secret" labels={labels} />}
            <SecretField label={labels.webhookSecret} value={webhookSecret} testId="otp-webhook-secret" labels={labels} />
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose} data-testid="otp-key-once-close">{labels.close}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
