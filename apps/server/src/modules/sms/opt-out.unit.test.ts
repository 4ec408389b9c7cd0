import { describe, expect, it } from 'vitest';
import { classifyReply } from './opt-out.js';

describe('classifyReply (docs/decisions/sms-opt-out.md)', () => {
  it.each([
    'STOP',
    'stop.',
    'Stop!!',
    'QUIT',
    'End',
    'REVOKE',
    'OPT OUT',
    'opt-out',
    'CANCEL',
    'UNSUBSCRIBE',
    'STOP please',
    'please stop',
    'ALTO',
    'PARAR',
    'CANCELAR',
    'BAJA',
    'Basta',
    'no más',
    'please stop texting me',
    'Stop sending me messages',
    "don't text me anymore",
    'Take me off your list',
    'no me manden más mensajes',
    'Por favor no me escriban más',
    'Dejen de escribirme',
    'Ya no quiero recibir mensajes',
    'quiero darme de baja',
  ])('%s is a stop', (text) => expect(classifyReply(text)).toBe('stop'));

  it.each(['START', 'Unstop', 'start.', 'COMENZAR'])('%s re-subscribes', (text) =>
    expect(classifyReply(text)).toBe('start'),
  );

  it.each(['Can you stop by tomorrow?', 'I want to cancel my appointment', 'When does the open enrollment end?'])(
    '%s is flagged, not guessed',
    (text) => expect(classifyReply(text)).toBe('ambiguous'),
  );

  it.each(['Yes, Tuesday works', 'Thanks!', 'Hola, ¿a qué hora?', '', '   '])('%s is an ordinary reply', (text) => {
    // "Yes" alone re-subscribes only as a bare keyword; inside a sentence it is just a reply.
    expect(classifyReply(text)).toBe(null);
  });
});
