import { describe, expect, it } from 'vitest';
import { UpdateProfileRequest, displayNameOf } from './account';
import {
  DISPLAY_NAME_CONTROL,
  DISPLAY_NAME_MAX,
  DISPLAY_NAME_NO_EMAIL,
  displayNameProblem,
  normaliseDisplayName,
} from './display-name';

const profile = {
  first_name: 'Maya',
  last_name: 'Patel',
  phone: '',
  street_address_1: '',
  city: '',
  state: '',
  zipcode: '',
};
const parse = (display_name: string) => UpdateProfileRequest.safeParse({ ...profile, display_name });

describe('display names (issue 35)', () => {
  it('refuses every control, separator, direction and invisible format character', () => {
    const refused = [
      '\u0000',
      '\u0007',
      '\t',
      '\n',
      '\u001B',
      '\u007F',
      '\u0085',
      '\u2028',
      '\u2029',
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
      '\u200B',
      '\u2060',
      '\uFEFF',
      '\u00AD',
      '\u{E0041}',
    ];
    for (const character of refused) {
      const name = `Maya${character}P`;
      const label = `U+${character.codePointAt(0)!.toString(16).toUpperCase()}`;
      expect(displayNameProblem(normaliseDisplayName(name)), label).toBe(DISPLAY_NAME_CONTROL);
      const result = parse(name);
      expect(result.success, label).toBe(false);
      expect(
        result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]),
        label,
      ).toEqual([['display_name', DISPLAY_NAME_CONTROL]]);
    }
  });

  it('checks the NFKC form: a full-width or small "@" is an e-mail address like "@"', () => {
    for (const name of ['maya＠example.com', 'maya﹫example.com', 'maya@example.com']) {
      expect(
        parse(name).error?.issues.map((issue) => issue.message),
        name,
      ).toEqual([DISPLAY_NAME_NO_EMAIL]);
    }
  });

  it('stores the normalised form, and measures its length on that form', () => {
    expect(parse('  Ｍａｙａ the ﬁrst\u3000fan ').data?.display_name).toBe('Maya the first fan');
    // Forty full-width letters are forty letters; fourteen ligatures "ﬃ" are 42 letters once normalised.
    expect(parse('Ａ'.repeat(DISPLAY_NAME_MAX)).data?.display_name).toBe('A'.repeat(DISPLAY_NAME_MAX));
    expect(parse('ﬃ'.repeat(14)).success).toBe(false);
  });

  it('keeps names in other scripts, accents and emoji sequences (with their joiners)', () => {
    for (const name of ['Zoë Ångström', 'مايا', 'マヤ', 'मैत्री', 'خانه‌ای', 'Maya 👩‍👩‍👧', 'Maya P.', '']) {
      const result = parse(name);
      expect(result.success, name).toBe(true);
      expect(result.data?.display_name, name).toBe(name.normalize('NFKC'));
    }
  });

  it('shows a name stored before these rules only if it keeps them; otherwise the default name', () => {
    const user = { first_name: 'Maya', last_name: 'Patel' };
    expect(displayNameOf({ ...user, display_name: 'Maya \u202Eelpmaxe' })).toBe('Maya P.');
    expect(displayNameOf({ ...user, display_name: 'maya＠example.com' })).toBe('Maya P.');
    expect(displayNameOf({ ...user, display_name: ' Ｍａｙａ fan ' })).toBe('Maya fan');
    expect(displayNameOf({ ...user, display_name: '' })).toBe('Maya P.');
  });
});
