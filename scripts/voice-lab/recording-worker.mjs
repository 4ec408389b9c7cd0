// Converts a call's pcaps to its WAV (recording.mjs) off the relay's event loop: an hour's call takes seconds, and
// meanwhile Kamailio's events for other calls (answered within its 2 s http_client timeout) must still be heard.
import { parentPort, workerData } from 'node:worker_threads';
import { recordingWav } from './recording.mjs';

parentPort.postMessage(recordingWav(workerData.pcaps));
