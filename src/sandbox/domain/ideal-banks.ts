/**
 * The banks of iDEAL (brand 3010) and how the provider named them. A merchant picks the customer's bank
 * with `body.bank.issuerId`, the provider's issuer id (10 ABN AMRO, 20 Rabobank, ... as its published
 * brand list and the public shop integrations give them), and the provider answered `body.bank.name` with
 * that bank in its own form: upper case with underscores (`ABN_AMRO`, `RABOBANK`, recorded answers).
 * iDEAL's own issuer codes (the banks' BICs, `INGBNL2A`) name the same banks and are taken too.
 */
import { ibanCheckDigits } from './iban.js';

export interface IdealBank {
  /** The provider's issuer id. */
  issuerId: string;
  /** `body.bank.name` as the provider answered it. */
  name: string;
  /** How the bank page shows it. */
  label: string;
  /** The bank's BIC (iDEAL's own issuer code). */
  bic: string;
  /** The four letters of the bank in a Dutch IBAN. */
  ibanCode: string;
}

export const IDEAL_BANKS: readonly IdealBank[] = [
  { issuerId: '10', name: 'ABN_AMRO', label: 'ABN AMRO', bic: 'ABNANL2A', ibanCode: 'ABNA' },
  { issuerId: '20', name: 'RABOBANK', label: 'Rabobank', bic: 'RABONL2U', ibanCode: 'RABO' },
  { issuerId: '30', name: 'ING', label: 'ING', bic: 'INGBNL2A', ibanCode: 'INGB' },
  { issuerId: '40', name: 'SNS_BANK', label: 'SNS Bank', bic: 'SNSBNL2A', ibanCode: 'SNSB' },
  { issuerId: '50', name: 'ASN_BANK', label: 'ASN Bank', bic: 'ASNBNL21', ibanCode: 'ASNB' },
  { issuerId: '60', name: 'REGIOBANK', label: 'RegioBank', bic: 'RBRBNL21', ibanCode: 'RBRB' },
  { issuerId: '70', name: 'TRIODOS_BANK', label: 'Triodos Bank', bic: 'TRIONL2U', ibanCode: 'TRIO' },
  { issuerId: '80', name: 'KNAB', label: 'Knab', bic: 'KNABNL2H', ibanCode: 'KNAB' },
  { issuerId: '100', name: 'VAN_LANSCHOT', label: 'Van Lanschot', bic: 'FVLBNL22', ibanCode: 'FVLB' },
  { issuerId: '110', name: 'BUNQ', label: 'bunq', bic: 'BUNQNL2A', ibanCode: 'BUNQ' },
  { issuerId: '120', name: 'MONEYOU', label: 'Moneyou', bic: 'MOYONL21', ibanCode: 'MOYO' },
  { issuerId: '130', name: 'HANDELSBANKEN', label: 'Handelsbanken', bic: 'HANDNL2A', ibanCode: 'HAND' },
  { issuerId: '140', name: 'REVOLUT', label: 'Revolut', bic: 'REVOLT21', ibanCode: 'REVO' },
];

const BY_CODE = new Map<string, IdealBank>();
for (const bank of IDEAL_BANKS) {
  BY_CODE.set(bank.issuerId, bank);
  BY_CODE.set(bank.bic, bank);
}

/** The iDEAL bank an issuer id (the provider's `10`, `"20"`..., or a BIC) names; undefined for another. */
export function idealBankOf(issuerId: string | undefined): IdealBank | undefined {
  return issuerId === undefined ? undefined : BY_CODE.get(issuerId.trim().toUpperCase());
}

/** The account number every sandbox iDEAL payer has, at whichever bank (nobody's account). */
const SANDBOX_ACCOUNT_NUMBER = '0417164300';

/** The sandbox payer's account at `bank`: a Dutch IBAN with valid check digits, the bank's BIC. */
export function idealAccount(bank: IdealBank): { iban: string; bic: string; accountNumber: string } {
  const bban = bank.ibanCode + SANDBOX_ACCOUNT_NUMBER;
  return { iban: `NL${ibanCheckDigits('NL', bban)}${bban}`, bic: bank.bic, accountNumber: SANDBOX_ACCOUNT_NUMBER };
}
