import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isActiveCallState, type One, type UserInfo } from '@tongdai/contracts';
import { connectPbxEvents, dialBus, notify, publishPhoneReady, tenantApi, toApiError } from '@tongdai/platform';
import { customerPopupAllowed, dialNumber, fetchDirectory, fetchSipAccount, logCall } from '../phone/account';
import { applySpeaker, audioConstraint, deviceChoice, watchAudioDevices } from '../phone/devices';
import { createAdapter } from '../phone/create-adapter';
import { PhoneController, type PhoneView } from '../phone/controller';
import { log } from '../providers/types';

/** The remote audio element the host's layout renders (SPEC §2). */
const layoutAudio = () => document.getElementById('softphone-audio') as HTMLAudioElement | null;

/** SPEC §4: activity status 3 stops the phone. */
const STOPPED_STATUS = 3;

/**
 * The same query key as the host's settings screens: the shared QueryClient hands this hook the
 * status the user just chose on /user-setting/status, so the phone stops or restarts at once.
 */
const useUserInfo = () =>
  useQuery({ queryKey: ['settings', 'me'], queryFn: () => tenantApi().get('user-info-login').json<One<UserInfo>>().then((r) => r.data), staleTime: 60_000, retry: false });

/** One controller for the mounted softphone; it lives as long as the single-spa application. */
export function usePhone(): { view: PhoneView; phone: PhoneController } {
  const phone = useMemo(() => new PhoneController({
    createAdapter,
    customerPopupAllowed,
    logCall,
    audio: layoutAudio,
    audioInput: () => audioConstraint(),
    renewToken: () => fetchSipAccount().then((a) => a?.access_token ?? Promise.reject(new Error('no token'))),
    fetchDirectory,
  }), []);
  const view = useSyncExternalStore(
    (cb) => { const s = phone.view.subscribe(cb); return () => s.unsubscribe(); },
    () => phone.snapshot,
  );
  const me = useUserInfo();
  const waiting = me.isPending;
  const paused = me.data?.status_activity === STOPPED_STATUS;

  useEffect(() => {
    if (waiting) return;
    if (paused) { phone.stop(true); return; }
    let live = true;
    fetchSipAccount().then(
      (account) => { if (live) void phone.start(account); },
      (err: unknown) => { log.error('GET /sip-account failed', err); if (live) phone.failAccount(); },
    );
    return () => { live = false; phone.stop(); };
  }, [phone, waiting, paused]);

  // The chosen speaker on the layout's <audio>, now and whenever the agent picks another one;
  // which microphones are plugged in (the chosen one is asked for exactly while it is).
  useEffect(() => {
    const sub = deviceChoice.value$.subscribe((c) => applySpeaker(layoutAudio(), c.output));
    const unwatch = watchAudioDevices();
    return () => { sub.unsubscribe(); unwatch(); };
  }, []);

  // The tenant's call events (who rings, who answered) onto the platform bus while the phone lives.
  useEffect(() => connectPbxEvents(), []);

  // Click-to-call (issue 15): the screens' buttons are enabled while the phone can dial; their
  // requests are dialled here, the number asked of the API when the screen named a customer or a call.
  const ready = view.context.registered && !isActiveCallState(view.context.state);
  useEffect(() => publishPhoneReady(ready), [ready]);
  useEffect(() => () => publishPhoneReady(false), []);
  useEffect(() => {
    const sub = dialBus.requests$.subscribe((request) => {
      dialNumber(request).then(
        (number) => phone.call(number),
        async (err: unknown) => notify('error', (await toApiError(err)).message),
      );
    });
    return () => sub.unsubscribe();
  }, [phone]);

  return { view, phone };
}
