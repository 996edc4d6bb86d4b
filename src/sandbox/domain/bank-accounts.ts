/**
 * The payer's account a successful bank payment answers in `body.bank` (`accountHolderName`, `iban`,
 * `bic`), as the provider's bank brands reported the account that paid. Sandbox values: each country's
 * published example IBAN (valid check digits, nobody's account) and the BIC of the bank it names.
 */
import type { BankDetails } from './records.js';

interface SandboxAccount {
  iban: string;
  bic: string;
}

const ACCOUNTS: Record<string, SandboxAccount> = {
  NL: { iban: 'NL91ABNA0417164300', bic: 'ABNANL2A' },
  DE: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
  AT: { iban: 'AT611904300234573201', bic: 'BKAUATWW' },
  BE: { iban: 'BE68539007547034', bic: 'GKCCBEBB' },
  CH: { iban: 'CH9300762011623852957', bic: 'UBSWCHZH80A' },
  GB: { iban: 'GB29NWBK60161331926819', bic: 'NWBKGB2L' },
  PL: { iban: 'PL61109010140000071219812874', bic: 'WBKPPLPP' },
};

/** The account holder every sandbox bank payment is paid by. */
export const SANDBOX_ACCOUNT_HOLDER = 'Sandbox Customer';

/** The account that paid a bank payment in `countryCode` (the German one for a country without its own). */
export function sandboxAccount(countryCode: string | undefined): Required<Pick<BankDetails, 'accountHolderName' | 'iban' | 'bic'>> {
  const account = (countryCode !== undefined ? ACCOUNTS[countryCode] : undefined) ?? ACCOUNTS.DE!;
  return { accountHolderName: SANDBOX_ACCOUNT_HOLDER, iban: account.iban, bic: account.bic };
}
