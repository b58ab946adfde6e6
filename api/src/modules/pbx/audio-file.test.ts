import { AUDIO_PROBLEM, inspectAudio, mp3Info, wavInfo } from './audio-file';
import { mp3, wav } from '@tongdai/testkit/pbx-kit';
import { headerOnlyWav, wavClaiming, wavWithFormat } from '@tongdai/testkit/wav';

describe('audio files are recognised from their bytes', () => {
  it('reads a WAV duration from the byte rate and the data chunk', () => {
    expect(wavInfo(wav(1))).toEqual({ mime: 'audio/wav', duration: 1 });
    expect(wavInfo(wav(2.5, 16000))).toEqual({ mime: 'audio/wav', duration: 2.5 });
    // A truncated data chunk plays what is there.
    expect(wavInfo(wav(1).subarray(0, 44 + 8000))).toMatchObject({ duration: 0.5 });
  });

  it('walks MP3 frames, after an ID3v2 tag too', () => {
    // 100 frames × 1152 samples / 44100 Hz
    expect(mp3Info(mp3(100))).toEqual({ mime: 'audio/mpeg', duration: 2.612 });
    expect(mp3Info(mp3(100, true))).toMatchObject({ duration: 2.612 });
  });

  it('uses the frame count of a Xing header', () => {
    const file = mp3(10);
    // MPEG-1 joint stereo: side info 32 bytes, so the tag sits 36 bytes into the first frame.
    file.write('Xing', 36, 'latin1');
    file.writeUInt32BE(1, 40);
    file.writeUInt32BE(3828, 44);
    expect(mp3Info(file)).toMatchObject({ duration: 99.997 }); // 3828 × 1152 / 44100, not the 10 frames present
  });

  it('refuses text, images and lone frame-like bytes', () => {
    expect(inspectAudio(Buffer.from('đây không phải là mp3'))).toBeNull();
    expect(inspectAudio(Buffer.from('ID3 rồi chữ'))).toBeNull();
    expect(inspectAudio(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull();
    expect(inspectAudio(Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x44]), Buffer.alloc(500, 1)]))).toBeNull();
    expect(inspectAudio(Buffer.from('RIFF\0\0\0\0WAVE'))).toBeNull();
  });

  it('refuses a header-only WAV, a WAV claiming 4 GB, a format whose numbers disagree, a lying Xing count (issue 12 §6)', () => {
    expect(inspectAudio(headerOnlyWav())).toEqual({ problem: AUDIO_PROBLEM.tooShort });
    expect(headerOnlyWav().length).toBe(44);
    for (const size of [0xffffffff, 0xfffffff0, 11 * 1024 * 1024]) expect(inspectAudio(wavClaiming(size))).toEqual({ problem: AUDIO_PROBLEM.wavSize });
    expect(inspectAudio(wavWithFormat({ byteRate: 1 }))).toEqual({ problem: AUDIO_PROBLEM.wavFormat });
    expect(inspectAudio(wavWithFormat({ channels: 0 }))).toEqual({ problem: AUDIO_PROBLEM.wavFormat });
    expect(inspectAudio(wavWithFormat({ format: 0x55 }))).toEqual({ problem: AUDIO_PROBLEM.wavFormat });
    expect(inspectAudio(wavWithFormat({ bits: 13 }))).toEqual({ problem: AUDIO_PROBLEM.wavFormat });
    expect(inspectAudio(wavWithFormat({}))).toEqual({ mime: 'audio/wav', duration: 1 });
    const file = mp3(10);
    file.write('Xing', 36, 'latin1');
    file.writeUInt32BE(1, 40);
    file.writeUInt32BE(0xffffffff, 44);
    expect(mp3Info(file)).toEqual({ problem: AUDIO_PROBLEM.mp3Frames });
    expect(inspectAudio(mp3(1))).toEqual({ problem: AUDIO_PROBLEM.tooShort });
  });
});
