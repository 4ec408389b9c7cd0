// Types of the voice lab's entry points for the TypeScript that uses them (the e2e flows, the bench).
export declare const LAB_PORTS: {
  sip: number;
  ws: number;
  ng: number;
  answerer: number;
  carrier: number;
  relay: number;
};
export interface LabEvent {
  call_sid: string;
  status: string;
  at: number;
}
export interface Lab {
  dir: string;
  recordings: string;
  disclaimer: string;
  relay: {
    url: string;
    /** Where Harbor fetches the lab's recordings (VOICE_SIP_RECORDINGS_URL). */
    recordingsUrl: string;
    sent: LabEvent[];
    settled(): Promise<unknown>;
    close(): Promise<void>;
  };
  env: Record<string, string>;
  inboundCall(call: { from: string; to: string; holdMs?: number }): InboundCall;
  stop(): Promise<void>;
}
export declare function missingPackages(): string[];
export declare function ensureLabInstalled(log?: (line: string) => void): string[];
export declare function startLab(o: {
  appUrl: string;
  secret?: string;
  dir?: string;
  ports?: Partial<typeof LAB_PORTS>;
  log?: (line: string) => void;
}): Promise<Lab>;
export declare function inboundCall(
  dir: string,
  call: { from: string; to: string; holdMs?: number },
  ports?: typeof LAB_PORTS,
): InboundCall;
/** SIPp's exit code once the call is over; `hangUp` ends a call still ringing or held (a failed flow's cleanup). */
export type InboundCall = Promise<number> & { hangUp(): void };
