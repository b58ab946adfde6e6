import { Text } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { isActiveCallState } from '@tongdai/contracts';
import { displayPhone } from '@tongdai/platform';
import { NS } from '../i18n';
import { PhoneStatus } from '../PhoneStatus';
import { Voicemail } from '../voicemail/Voicemail';
import { RecentCalls } from '../recent/RecentCalls';
import { CallControls } from './CallControls';
import { CallerCard } from './CallerCard';
import { DeviceSettings } from './DeviceSettings';
import { DialPad } from './DialPad';
import { IncomingCall } from './IncomingCall';
import { TransferButton } from './TransferButton';
import { colleagueOf, useDirectory } from './useDirectory';
import { usePhone } from './usePhone';
import { useSpyCall } from './useSpyCall';
import { useSoftphoneStyles } from './styles';

/** The softphone in the top-bar slot: badge, dial pad, call controls, incoming-call and customer cards. */
export function Softphone() {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  const { view, phone } = usePhone();
  const { state, remoteNumber, remoteName, registered, hold, via } = view.context;
  const active = isActiveCallState(state);
  const ringing = state === 'CALL_INCOMING';
  const connected = state === 'CALL_ACCEPTED' || state === 'CALL_CONFIRMED';
  // Who an internal caller (or callee) is: the directory, loaded once the phone has an account.
  const directory = useDirectory(() => phone.directory(), view.account === 'ready');
  const colleague = colleagueOf(directory.data, remoteNumber);
  const cardReady = !directory.isLoading;
  const spy = useSpyCall(remoteNumber, active);
  // The number the customer card looks up; none for a feature code (*222…, *97, *41…: the PBX itself, no customer).
  const cardNumber = view.customerPopup && remoteNumber && !remoteNumber.startsWith('*') ? remoteNumber : undefined;
  return (
    <div className={s.root} data-testid="softphone-root">
      <PhoneStatus view={view} />
      {view.account === 'ready' && (
        <DialPad inCall={active && !ringing} canCall={registered && !active} onCall={(n) => phone.call(n)} onDtmf={(k) => { phone.dtmf(k); spy.onKey(k); }} />
      )}
      {view.account === 'ready' && view.extension && (
        <RecentCalls extension={view.extension} canCall={registered && !active} onCall={(n) => phone.call(n)} />
      )}
      {view.account === 'ready' && view.extension && <Voicemail extension={view.extension} />}
      {view.account === 'ready' && <DeviceSettings />}
      {active && !ringing && (
        <CallControls
          number={spy.label ?? (colleague || !remoteNumber ? remoteNumber : displayPhone(remoteNumber))} connectedAt={view.connectedAt} muted={view.muted} hold={hold}
          onMute={() => phone.toggleMute()} onHangup={() => phone.hangup()}
          onHold={view.canHold && connected ? () => phone.toggleHold() : undefined}
          recording={view.recording} onRecording={view.recording && connected ? () => phone.toggleRecording() : undefined}
        />
      )}
      {active && connected && view.canTransfer && (
        <TransferButton own={view.extension} loadTargets={() => phone.directory()} onTransfer={(target) => phone.transfer(target)} />
      )}
      {view.transferFailed && <Text className={s.held} role="alert" data-testid="softphone-transfer-failed">{t('transferFailed')}</Text>}
      {(ringing || cardNumber) && (
        <div className={s.stack}>
          {ringing && <IncomingCall number={remoteNumber ?? ''} name={colleague?.display_name ?? remoteName} internal={!!colleague} via={via} onAnswer={() => phone.answer()} onReject={() => phone.reject()} />}
          {cardNumber && cardReady && (
            <CallerCard key={cardNumber} number={cardNumber} colleague={colleague} onClose={() => phone.dismissCustomerPopup()} />
          )}
        </div>
      )}
    </div>
  );
}
