import { isActiveCallState } from '@tongdai/contracts';
import { PhoneStatus } from '../PhoneStatus';
import { CallControls } from './CallControls';
import { DialPad } from './DialPad';
import { IncomingCall } from './IncomingCall';
import { usePhone } from './usePhone';
import { useSoftphoneStyles } from './styles';

/** The softphone in the top-bar slot: badge, dial pad, call controls, incoming-call popup. */
export function Softphone() {
  const s = useSoftphoneStyles();
  const { view, phone } = usePhone();
  const { state, remoteNumber, registered } = view.context;
  const active = isActiveCallState(state);
  const ringing = state === 'CALL_INCOMING';
  return (
    <div className={s.root} data-testid="softphone-root">
      <PhoneStatus view={view} />
      {view.account === 'ready' && (
        <DialPad inCall={active && !ringing} canCall={registered && !active} onCall={(n) => phone.call(n)} onDtmf={(k) => phone.dtmf(k)} />
      )}
      {active && !ringing && (
        <CallControls number={remoteNumber} connectedAt={view.connectedAt} muted={view.muted} onMute={() => phone.toggleMute()} onHangup={() => phone.hangup()} />
      )}
      {ringing && (
        <IncomingCall number={remoteNumber ?? ''} customerPopup={view.customerPopup} onAnswer={() => phone.answer()} onReject={() => phone.reject()} />
      )}
    </div>
  );
}
