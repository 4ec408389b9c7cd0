/**
 * What an inbound reply means for consent (docs/decisions/sms-opt-out.md). FCC 24-18: a revocation "by any
 * reasonable means" counts, so beyond the keywords (STOP, QUIT, END, REVOKE, OPT OUT, CANCEL, UNSUBSCRIBE and their
 * Spanish forms) clear sentences in English and Spanish count too. What looks like it might be a stop but is not
 * clear ("stop by tomorrow?", "cancel my appointment") is flagged for the agent, never guessed.
 */

export type ReplyIntent = 'stop' | 'start' | 'ambiguous' | null;

/** A reply that is only one of these (any case, punctuation, accents) is a stop. */
export const STOP_KEYWORDS = [
  'stop',
  'stopall',
  'stop all',
  'quit',
  'end',
  'revoke',
  'opt out',
  'optout',
  'cancel',
  'unsubscribe',
  'unsub',
  'remove',
  'remove me',
  // Spanish
  'alto',
  'para',
  'parar',
  'pare',
  'detener',
  'cancelar',
  'baja',
  'darme de baja',
  'dar de baja',
  'basta',
  'no mas',
  'terminar',
  'fin',
  'salir',
  'eliminar',
] as const;

/** A reply that is only one of these re-subscribes. */
export const START_KEYWORDS = [
  'start',
  'unstop',
  'yes',
  'subscribe',
  'resume',
  'comenzar',
  'iniciar',
  'reanudar',
] as const;

/** Clear sentences, matched on the normalised text (lower case, no accents, single spaces). */
export const STOP_SENTENCES: readonly RegExp[] = [
  // English: "please stop texting me", "stop sending me messages", "don't text me anymore", "take me off your list"
  /\b(stop|quit|cease) (texting|messaging|sending|contacting|txting|writing)\b/,
  /\b(do not|dont|don t|never) (text|message|contact|sms|txt|write)( to)? me\b/,
  /\b(no|stop) (more )?(texts|messages|sms)\b/,
  /\b(take|remove|delete) (me|my number) (off|from)\b/,
  /\b(unsubscribe|opt me out|opt out)\b/,
  /\bleave me alone\b/,
  /\bwrong number\b.*\b(stop|remove|dont|do not)\b/,
  // Spanish: "no me manden más mensajes", "por favor no me escriban más", "dejen de escribirme", "ya no me envíen"
  /\bno me (manden|mande|envien|envie|escriban|escriba|textee|texteen|contacten|contacte|llamen|molesten)\b/,
  /\b(dejen|deje|dejar) de (escribir|mandar|enviar|textear|contactar|molestar)/,
  /\b(no|ya no) (quiero|deseo) (recibir|mas|más) (mensajes|textos)?/,
  /\b(quitenme|quiteme|borrenme|sacame|saquenme|eliminenme)\b/,
  /\bdar(me)? de baja\b/,
  /\bno mas mensajes\b/,
];

/** Words that suggest a stop inside a longer message that is not clearly one: the agent decides. */
const HINTS = /\b(stop|quit|end|cancel|unsubscribe|remove|alto|parar|basta|baja|cancelar|no mas|dejen)\b/;

/** Lower case, accents off, punctuation to spaces, one space between words. */
export function normaliseReply(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[’']/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const STOPS = new Set<string>(STOP_KEYWORDS);
const STARTS = new Set<string>(START_KEYWORDS);

export function classifyReply(text: string): ReplyIntent {
  const t = normaliseReply(text);
  if (!t) return null;
  // "STOP." "Stop!!" "please stop" "STOP please": a keyword with only courtesy around it.
  const bare = t
    .replace(/^(please|pls|por favor|porfavor) /, '')
    .replace(/ (please|pls|por favor|thanks|thank you|gracias)$/, '');
  if (STOPS.has(bare)) return 'stop';
  if (STARTS.has(bare)) return 'start';
  if (STOP_SENTENCES.some((re) => re.test(t))) return 'stop';
  if (HINTS.test(t)) return 'ambiguous';
  return null;
}

/** The one confirmation each gets (CTIA: one message confirming, no marketing in it). */
export const STOP_CONFIRMATION =
  'You have been unsubscribed and will receive no more texts from us. Reply START to subscribe again.';
export const START_CONFIRMATION = 'You are subscribed to texts again. Reply STOP at any time to stop.';
