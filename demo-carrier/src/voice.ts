import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { concat, silence, tone } from '@tongdai/media/audio/tones';
import { decodeWav } from '@tongdai/media/audio/wav';

/** What the demo carrier says (Vietnamese; numbers are read digit by digit from recorded clips). */
export const PHRASES = {
  /** To a caller of the tenant (softphone → switchboard → here), before the dialled number. */
  answerIntro: 'Xin chào. Đây là nhà mạng demo của Tổng Đài, một nhà mạng giả lập để dùng thử. Bạn vừa gọi tới số',
  answerOutro: 'Cuộc gọi đã thông. Cuộc gọi này không đi ra mạng điện thoại thật và không tính cước. Xin cảm ơn.',
  /** To whoever answers a call the carrier places to a hotline (POST /call), before the hotline. */
  inboundIntro: 'Xin chào. Đây là cuộc gọi thử từ nhà mạng demo tới hotline',
  inboundOutro: 'Cuộc gọi vào hotline đã hoạt động. Xin cảm ơn.',
  digits: ['không', 'một', 'hai', 'ba', 'bốn', 'năm', 'sáu', 'bảy', 'tám', 'chín'],
} as const;

export const ESPEAK = 'espeak-ng';

export const espeakAvailable = (): boolean => spawnSync(ESPEAK, ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * One phrase as 8 kHz samples: espeak-ng's Vietnamese voice writes a WAV (22 kHz) into `cacheDir`
 * once, named by a hash of voice and text, and the media worker's decoder brings it to 8 kHz mono.
 * Null when espeak-ng is not installed or fails.
 */
export function speak(text: string, o: { cacheDir: string; voice?: string; speed?: number }): Int16Array | null {
  const voice = o.voice ?? 'vi';
  const speed = o.speed ?? 150;
  const file = join(o.cacheDir, `${createHash('sha1').update(`${voice}|${speed}|${text}`).digest('hex').slice(0, 16)}.wav`);
  if (!existsSync(file)) {
    mkdirSync(o.cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    const r = spawnSync(ESPEAK, ['-v', voice, '-s', String(speed), '-w', tmp, text], { stdio: 'ignore', timeout: 15_000 });
    if (r.status !== 0 || !existsSync(tmp)) return null;
    renameSync(tmp, file);
  }
  return decodeWav(readFileSync(file));
}

export type Announcement = 'answer' | 'inbound';

/**
 * The carrier's announcements: spoken phrases and digits, made once at start. Without espeak-ng
 * each phrase is a short two-tone chime and each digit a beep, so a call is still heard.
 */
export class Voice {
  private constructor(
    private readonly phrases: Record<'answerIntro' | 'answerOutro' | 'inboundIntro' | 'inboundOutro', Int16Array>,
    private readonly digits: Int16Array[],
    /** True when the phrases are speech (espeak-ng), false for the tone stand-in. */
    readonly spoken: boolean,
  ) {}

  static load(o: { cacheDir: string; voice?: string; log?: (m: string) => void }): Voice {
    const say = (text: string) => (espeakAvailable() ? speak(text, o) : null);
    const intro = say(PHRASES.answerIntro);
    if (!intro) {
      o.log?.(`${ESPEAK} is not installed (or failed): announcements are tones instead of Vietnamese speech`);
      return Voice.tones();
    }
    const phrases = {
      answerIntro: intro,
      answerOutro: say(PHRASES.answerOutro)!,
      inboundIntro: say(PHRASES.inboundIntro)!,
      inboundOutro: say(PHRASES.inboundOutro)!,
    };
    return new Voice(phrases, PHRASES.digits.map((d) => say(d)!), true);
  }

  /** The stand-in without espeak-ng: a two-tone chime for each phrase, a beep for each digit. */
  static tones(): Voice {
    const chime = concat([tone([660], 300), silence(100), tone([880], 500)]);
    return new Voice({ answerIntro: chime, answerOutro: chime, inboundIntro: chime, inboundOutro: chime }, PHRASES.digits.map((_, d) => tone([400 + 60 * d], 180)), false);
  }

  /** The clips of one announcement: intro, the number digit by digit, outro. */
  clips(kind: Announcement, number: string): Int16Array[] {
    const [intro, outro] = kind === 'answer' ? [this.phrases.answerIntro, this.phrases.answerOutro] : [this.phrases.inboundIntro, this.phrases.inboundOutro];
    const digits = [...number.replace(/^\+84/, '0')].filter((c) => /\d/.test(c)).flatMap((c) => [this.digits[Number(c)], silence(60)]);
    return [silence(300), intro, silence(200), ...digits, silence(300), outro, silence(400)];
  }
}
