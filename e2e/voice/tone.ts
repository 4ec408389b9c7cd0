/**
 * The fake microphone's sound for the voice lab flows: notes of changing pitch and length with gaps, like speech in
 * rhythm. A steady sine does not survive: WebRTC's noise suppression and echo cancellation (on, as in production)
 * fade a stationary tone to near silence within about two seconds, and an echoed periodic beep looks like echo.
 */
import fs from 'node:fs';
import { wavFile } from '../../scripts/voice-lab/recording.mjs';

export function writeSpeechLikeWav(file: string, seconds = 90, rate = 48_000) {
  const samples = new Int16Array(seconds * rate);
  let seed = 13;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  for (let i = 0; i < samples.length; ) {
    const note = Math.floor((0.15 + random() * 0.3) * rate);
    const gap = Math.floor((0.05 + random() * 0.25) * rate);
    const freq = 220 + random() * 660;
    for (let k = 0; k < note && i < samples.length; k++, i++) {
      // A short fade in and out: no clicks.
      const envelope = Math.min(1, k / 480, (note - k) / 480);
      samples[i] = Math.round(12_000 * envelope * Math.sin((2 * Math.PI * freq * k) / rate));
    }
    i += gap;
  }
  fs.writeFileSync(file, wavFile(samples, rate));
}
