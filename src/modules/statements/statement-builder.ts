import { CurrencyCode, isCurrency } from '../../common/money/currencies';
import type { StatementDocument, StatementGiftLine } from './pdf/statement-pdf';
import type { StatementTotal } from './statement.entity';
import type { DonorRow, GiftRow, HouseholdRow, StatementSettings, StatementUnit } from './statements.repository';

export interface StatementParts {
  /** The name printed as the recipient (the donor's, or the household's). */
  recipientName: string;
  document: Omit<StatementDocument, 'number' | 'issuedOn'>;
  totals: StatementTotal[];
}

const fullName = (donor: DonorRow) => `${donor.first_name} ${donor.last_name}`.trim();

/**
 * What one statement says, from the rows read for it: the recipient (a donor, or a household with
 * its givers), each gift in date order, and the sums per currency (never mixed), ordered by code.
 */
export function buildStatement(
  unit: StatementUnit,
  context: { year: number; churchName: string; settings: StatementSettings },
  donors: Map<string, DonorRow>,
  households: Map<string, HouseholdRow>,
  gifts: GiftRow[],
): StatementParts {
  const givers = unit.donorIds
    .map((id) => donors.get(id))
    .filter((d): d is DonorRow => d !== undefined)
    .sort((a, b) => a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name));
  const household = unit.householdId ? households.get(unit.householdId) : undefined;
  const recipientName = household?.name ?? (givers[0] ? fullName(givers[0]) : '');
  const address = household
    ? (household.address ?? household.contact_address ?? givers.find((g) => g.address)?.address ?? null)
    : (givers[0]?.address ?? null);

  const lines: StatementGiftLine[] = [];
  const sums = new Map<CurrencyCode, StatementTotal>();
  for (const gift of gifts) {
    // The API accepts only the table's currencies; one outside it would print with a wrong exponent: the run fails instead.
    if (!isCurrency(gift.currency))
      throw new Error(`statement of ${unit.recipientId}: currency ${gift.currency} is not in the money table`);
    const donor = donors.get(gift.donor_id);
    lines.push({
      receivedOn: gift.received_on,
      donor: donor ? fullName(donor) : '',
      fund: gift.fund,
      currency: gift.currency,
      amount: gift.amount,
      refunded: gift.refunded,
      net: gift.net,
    });
    const total = sums.get(gift.currency) ?? { currency: gift.currency, amount: 0, refunded: 0, net: 0 };
    total.amount += gift.amount;
    total.refunded += gift.refunded;
    total.net += gift.net;
    sums.set(gift.currency, total);
  }
  const totals = [...sums.values()].sort((a, b) => a.currency.localeCompare(b.currency));
  const { settings } = context;
  return {
    recipientName,
    totals,
    document: {
      lang: settings.language,
      year: context.year,
      church: {
        name: context.churchName,
        address: settings.address,
        taxId: settings.taxId,
        signerName: settings.signerName,
        signerTitle: settings.signerTitle,
      },
      recipient: { name: recipientName, address, donors: household ? givers.map(fullName) : [] },
      gifts: lines,
      totals,
    },
  };
}
