/**
 * A fake of Twilio's Voice SDK for the web tests (softphone/twilio-engine.test.ts mocks `@twilio/voice-sdk` with it):
 * Device and Call as event emitters that behave as the SDK's source does where the engine depends on it. `reject`
 * emits `reject` and no `disconnect`; `disconnect` emits `disconnect` once; `register` resolves (or refuses with
 * `refuseRegister`), and the test says when the Device is registered; `unregister` waits for `finishUnregister`.
 */
type Listener = (...args: any[]) => void;
class Emitter {
  private listeners = new Map<string, Listener[]>();
  on(name: string, fn: Listener) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn]);
    return this;
  }
  emit(name: string, ...args: unknown[]) {
    for (const fn of this.listeners.get(name) ?? []) fn(...args);
    return true;
  }
  removeAllListeners() {
    this.listeners.clear();
    return this;
  }
}
export class FakeCall extends Emitter {
  static State = { Closed: 'closed', Connecting: 'connecting', Open: 'open', Pending: 'pending', Ringing: 'ringing' };
  muted: boolean[] = [];
  digits: string[] = [];
  accepted = 0;
  rejected = 0;
  disconnected = 0;
  constructor(
    public state = 'connecting',
    public parameters: Record<string, string> = {},
  ) {
    super();
  }
  status() {
    return this.state;
  }
  mute(on: boolean) {
    this.muted.push(on);
  }
  sendDigits(digits: string) {
    this.digits.push(digits);
  }
  accept() {
    this.accepted++;
  }
  reject() {
    this.rejected++;
    this.state = 'closed';
    this.emit('reject');
  }
  disconnect() {
    this.disconnected++;
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.emit('disconnect', this);
  }
}
export class FakeDevice extends Emitter {
  static State = {
    Destroyed: 'destroyed',
    Unregistered: 'unregistered',
    Registering: 'registering',
    Registered: 'registered',
  };
  static instances: FakeDevice[] = [];
  /** The next register() refuses with this. */
  static refuseRegister: unknown = null;
  state = 'unregistered';
  log: string[] = [];
  connects: unknown[] = [];
  tokens: string[] = [];
  made: FakeCall[] = [];
  /** What the next connect() answers; by default a new call, at once. */
  connectWith: Promise<FakeCall> | null = null;
  finishUnregister: () => void = () => {};
  constructor(
    public token: string,
    public options: unknown,
  ) {
    super();
    FakeDevice.instances.push(this);
  }
  register() {
    this.log.push('register');
    const refusal = FakeDevice.refuseRegister;
    FakeDevice.refuseRegister = null;
    return refusal ? Promise.reject(refusal) : Promise.resolve();
  }
  registered() {
    this.state = 'registered';
    this.emit('registered');
  }
  unregister() {
    this.log.push('unregister');
    return new Promise<void>((resolve) => {
      this.finishUnregister = () => {
        this.state = 'unregistered';
        this.emit('unregistered');
        resolve();
      };
    });
  }
  destroy() {
    this.log.push('destroy');
    this.state = 'destroyed';
    this.removeAllListeners();
  }
  updateToken(token: string) {
    this.tokens.push(token);
  }
  connect(options: unknown) {
    this.connects.push(options);
    const made = this.connectWith ?? Promise.resolve(new FakeCall());
    this.connectWith = null;
    return made.then((call) => {
      this.made.push(call);
      return call;
    });
  }
}
