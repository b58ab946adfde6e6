import { useEffect } from 'react';
import { Toast, ToastTitle, Toaster, useId, useToastController } from '@fluentui/react-components';
import { notices$ } from '@tongdai/platform';

/** Shows the notices any remote posts through the platform. */
export function Toasts() {
  const toasterId = useId('toaster');
  const { dispatchToast } = useToastController(toasterId);
  useEffect(() => {
    const sub = notices$.subscribe((n) =>
      dispatchToast(<Toast data-testid={`toast-${n.intent}`}><ToastTitle>{n.message}</ToastTitle></Toast>, { intent: n.intent, timeout: 4000 }),
    );
    return () => sub.unsubscribe();
  }, [dispatchToast]);
  return <Toaster toasterId={toasterId} position="top-end" />;
}
