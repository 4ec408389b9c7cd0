// Types of the lab's pcap-to-WAV conversion (recording.mjs) for its unit test and the browser flows.
export declare const RATE: number;
export declare const PAUSE_GAP_S: number;
export declare const RECORDING_SID: RegExp;
export declare function recordingSid(callId: string): string;
export declare function ulaw(byte: number): number;
export declare function alaw(byte: number): number;
export interface AudioPacket {
  t: number;
  key: string;
  ts: number;
  samples: Int16Array;
}
export declare function readPcapAudio(buf: Buffer): AudioPacket[];
export declare function mixPackets(packets: AudioPacket[]): Int16Array;
export declare function wavFile(samples: Int16Array, rate?: number): Buffer;
export declare function escapeCallId(ci: string): string;
export declare function recordingFiles(spool: string, callId: string): { complete: boolean; pcaps: string[] };
export declare function recordingWav(pcaps: string[]): { wav: Buffer; seconds: number } | null;
