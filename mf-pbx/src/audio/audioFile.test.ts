import { AUDIO_MAX_BYTES, PBX_MSG } from '@tongdai/contracts';
import { AUDIO_ACCEPT, checkAudioFile } from './audioFile';

const file = (name: string, type: string, size = 16_044) => ({ name, type, size });

describe('checkAudioFile', () => {
  it('accepts WAV and MP3 by extension and type, whatever the case', () => {
    expect(checkAudioFile(file('chao.wav', 'audio/wav'))).toBeNull();
    expect(checkAudioFile(file('CHAO.WAV', 'audio/x-wav'))).toBeNull();
    expect(checkAudioFile(file('nhac.mp3', 'audio/mpeg'))).toBeNull();
    // The OS did not know the type: the extension decides.
    expect(checkAudioFile(file('nhac.mp3', ''))).toBeNull();
  });

  it('no file: "Chọn tệp âm thanh"', () => {
    expect(checkAudioFile(null)).toBe(PBX_MSG.audioRequired);
  });

  it.each([
    ['bai-hat.ogg', 'audio/ogg'],
    ['chao.wav.exe', 'application/octet-stream'],
    ['chao.wav', 'video/mp4'],
    ['wav', ''],
  ])('refuses %s (%s) as not WAV/MP3', (name, type) => {
    expect(checkAudioFile(file(name, type))).toBe(PBX_MSG.audioType);
  });

  it('refuses more than AUDIO_MAX_BYTES, naming the limit in MB; the limit itself passes', () => {
    expect(checkAudioFile(file('dai.mp3', 'audio/mpeg', AUDIO_MAX_BYTES))).toBeNull();
    expect(checkAudioFile(file('dai.mp3', 'audio/mpeg', AUDIO_MAX_BYTES + 1))).toBe('Tệp âm thanh tối đa 10 MB');
  });

  it('the file input offers exactly these kinds', () => {
    expect(AUDIO_ACCEPT.split(',')).toEqual(expect.arrayContaining(['.wav', '.mp3', 'audio/wav', 'audio/mpeg']));
  });
});
