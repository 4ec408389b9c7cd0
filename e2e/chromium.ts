/** Debian's Chromium as every browser flow launches it: headless and offline (no updates, sync or QUIC). */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/**
 * The voice lab's browser (e2e/voice-lab.config.ts, bench/voice-lab.ts): a microphone that plays `audioFile`, and
 * WebRTC allowed to pair on loopback, where rtpengine offers its only candidates (127.0.0.1).
 */
export const voiceChromium = (audioFile: string) => ({
  executablePath: CHROMIUM.executablePath,
  args: [
    ...CHROMIUM.args,
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-audio-capture=${audioFile}`,
    '--allow-loopback-in-peer-connection',
    '--disable-features=WebRtcHideLocalIpsWithMdns',
    '--autoplay-policy=no-user-gesture-required',
  ],
});
