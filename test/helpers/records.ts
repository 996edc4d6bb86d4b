import type { LinkRecord } from '../../src/sandbox/domain/records.js';

/** A stored link record as the store tests write it directly (no HTTP), READY and unpaid. */
export function linkRecord(id: string, trackingCode: string, businessId: string): LinkRecord {
  return {
    kind: 'link',
    id,
    businessId,
    trackingCode,
    createdAt: 0,
    updatedAt: 0,
    transaction: { amount: 1, currencyCode: 'EUR', authorizationMode: 'PAYMENT', trackingCode },
    brandIds: [1010],
    returnUrl: 'https://merchant.example/return',
    duration: 'P1D',
    expiresAt: 86_400_000,
    status: 'READY',
    tokenize: 'FALSE',
    threeDSecure: false,
    attempts: 0,
    paymentIds: [],
  };
}
