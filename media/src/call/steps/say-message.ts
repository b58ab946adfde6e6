/** What a step that speaks needs of a call (say-digits, say-message). */
export interface SpeakingCall {
  /** Plays 8 kHz samples; 'hangup' when the callee hung up meanwhile. */
  play(samples: Int16Array): Promise<'done' | 'hangup'>;
  hangUp(): void;
}

/**
 * Says one prepared message and hangs up (unless the callee already did): the end of a voice-OTP
 * call, and the dialer's abandon message (issue 34: no agent free for the contact who answered).
 */
export async function sayMessage(call: SpeakingCall, samples: Int16Array): Promise<'completed' | 'hangup'> {
  const played = await call.play(samples);
  if (played === 'hangup') return 'hangup';
  call.hangUp();
  return 'completed';
}
