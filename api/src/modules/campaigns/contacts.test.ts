import { CAMPAIGN_MSG, MSG } from '@tongdai/contracts';
import { candidatesOfSheet, checkContacts, guessMapping } from './contacts';

describe('contact imports (pure)', () => {
  it('stores numbers 84… however written, and refuses blank, malformed, repeated and already-present numbers with their row', () => {
    const c = (row: number, phone: string) => ({ row, name: `R${row}`, phone, fields: {} });
    const { valid, refused } = checkContacts(
      [c(2, '0912 345 678'), c(3, '+84.912.345.679'), c(4, '84912345678'), c(5, '12345'), c(6, ''), c(7, '0912345670'), c(8, '1900 1234')],
      new Set(['84912345670']),
    );
    expect(valid.map((v) => v.number)).toEqual(['84912345678', '84912345679', '19001234']);
    expect(refused).toEqual([
      { row: 4, name: 'R4', phone: '84912345678', message: CAMPAIGN_MSG.duplicateInFile(2) },
      { row: 5, name: 'R5', phone: '12345', message: MSG.phoneFormat },
      { row: 6, name: 'R6', phone: '', message: MSG.required },
      { row: 7, name: 'R7', phone: '0912345670', message: CAMPAIGN_MSG.alreadyInCampaign },
    ]);
  });

  it('guesses the name and phone columns from Vietnamese headers; other headed columns become fields; blank rows are skipped', () => {
    expect(guessMapping(['STT', 'Họ và tên', 'Số điện thoại'])).toEqual({ name_column: 1, phone_column: 2 });
    expect(guessMapping(['SĐT', 'Tên'])).toEqual({ name_column: 1, phone_column: 0 });
    expect(guessMapping(['a', 'b'])).toEqual({ name_column: -1, phone_column: -1 });
    const { header, candidates } = candidatesOfSheet([['Tên', 'SĐT', 'Gói', ''], ['An', '0912345678', 'A', 'x'], ['', '', '', ''], ['Bình', '0912345679', '', '']], { name_column: 0, phone_column: 1 });
    expect(header).toEqual(['Tên', 'SĐT', 'Gói', '']);
    expect(candidates).toEqual([
      { row: 2, name: 'An', phone: '0912345678', fields: { Gói: 'A' } },
      { row: 4, name: 'Bình', phone: '0912345679', fields: {} },
    ]);
  });
});
