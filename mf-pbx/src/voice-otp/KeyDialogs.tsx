import { OTP_LIMITS, OTP_SCOPES, type OtpKey } from '@tongdai/contracts';
import { CreateApiKeyDialog, RevokeApiKey, RotateApiKeySecret } from '@tongdai/ui';
import { OTP_NS } from './i18n';
import { otpKeyEntity } from './voice-otp.entity';
import { useRevokeKey, useRotateWebhookSecret } from './voice-otp.api';

/** "Thêm khoá API": the kit's key dialogs (@tongdai/ui ApiKeyDialogs) with voice-OTP's form and words. */
export function CreateKeyDialog({ close }: { close: () => void }) {
  return <CreateApiKeyDialog ns={OTP_NS} entity={otpKeyEntity} prefill={{ scopes: [...OTP_SCOPES], retry_after_s: OTP_LIMITS.retryAfterS }} testId="otp-key-form" close={close} />;
}

/** "Thu hồi" on a live key's row. */
export function RevokeKey({ row }: { row: OtpKey }) {
  return <RevokeApiKey ns={OTP_NS} row={row} revoke={useRevokeKey()} />;
}

/** "Khoá ký mới" on a live key's row. */
export function RotateWebhookSecret({ row }: { row: OtpKey }) {
  return <RotateApiKeySecret ns={OTP_NS} row={row} rotate={useRotateWebhookSecret()} />;
}
