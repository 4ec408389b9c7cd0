import { describe, expect, it } from 'vitest';
import {
  cardBrand,
  cardBrandLabel,
  cvcValid,
  formatCardNumber,
  formatUsd,
  luhnValid,
  maskedCard,
  parseExpiry,
  parseUsd,
} from './money.js';

describe('money', () => {
  it('shows USD with two decimals, N/A when missing', () => {
    expect(formatUsd(123456)).toBe('$1,234.56');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(-250)).toBe('-$2.50');
    expect(formatUsd(null)).toBe('N/A');
    expect(formatUsd(undefined)).toBe('N/A');
    expect(formatUsd(Number.NaN)).toBe('N/A');
  });

  it('reads dollars into cents and refuses fractions of a cent, signs and absurd amounts', () => {
    expect(parseUsd('12')).toBe(1200);
    expect(parseUsd('12.5')).toBe(1250);
    expect(parseUsd('$1,250.05')).toBe(125005);
    expect(parseUsd(' 0.99 ')).toBe(99);
    for (const bad of ['', '12.345', '-5', '1e3', 'ten', '12..5', '123456789.00', '1,25'])
      expect(parseUsd(bad)).toBeNull();
  });
});

describe('cards', () => {
  it('detects the four brands, checks Luhn and groups the number', () => {
    expect(cardBrand('4242 4242 4242 4242')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cardBrand('2223003122003222')).toBe('mastercard');
    expect(cardBrand('378282246310005')).toBe('amex');
    expect(cardBrand('6011111111111117')).toBe('discover');
    expect(cardBrand('9999')).toBeNull();
    expect(luhnValid('4242 4242 4242 4242')).toBe(true);
    expect(luhnValid('4242 4242 4242 4241')).toBe(false);
    expect(luhnValid('42')).toBe(false);
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(maskedCard('4242')).toBe('•••• 4242');
    expect(maskedCard(null)).toBe('N/A');
    // The processor names brands in lower case; people see the brand's own spelling.
    expect(cardBrandLabel('visa')).toBe('Visa');
    expect(cardBrandLabel('amex')).toBe('American Express');
    expect(cardBrandLabel('unionpay')).toBe('unionpay');
    expect(cardBrandLabel(null)).toBe('Card');
  });

  it('takes an expiry month of 01-12 that has not passed', () => {
    const now = new Date(2026, 10, 23);
    expect(parseExpiry('12/30', now)).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('11/2026', now)).toEqual({ month: 11, year: 2026 });
    expect(parseExpiry('13/30', now)).toEqual({ error: 'month' });
    expect(parseExpiry('00/30', now)).toEqual({ error: 'month' });
    expect(parseExpiry('10/26', now)).toEqual({ error: 'past' });
    expect(parseExpiry('1230', now)).toEqual({ error: 'format' });
    expect(cvcValid('123', 'visa')).toBe(true);
    expect(cvcValid('1234', 'visa')).toBe(false);
    expect(cvcValid('1234', 'amex')).toBe(true);
  });
});
