/**
 * Tokens (docs/test-cards.md, "Direct payments"): `POST {api}/tokens` saves a card, and the
 * sandbox extension `GET {api}/tokens/{token}` reads what a token remembers (never the number).
 */
import { brandById } from '../domain/brands.js';
import { absent, optionalIdentifier, optionalObject, requireInteger, requireObject, trackingCode } from '../http/fields.js';
import { envelope } from '../http/envelope.js';
import { invalidValue, RESULTS } from '../errors.js';
import type { Route, RouteRequest } from '../http/router.js';
import { tokenCreatedView, tokenView } from '../domain/answers.js';
import { parseCardInput } from './payments.js';

/** `customer` is stored as sent; far deeper than any real customer record and it overflowed the stack on save. */
const MAX_CUSTOMER_DEPTH = 32;

/** How deep arrays and objects nest in `value`, counted without recursion (stops early past the limit). */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_CUSTOMER_DEPTH) break;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

async function createToken(req: RouteRequest) {
  const { sandbox } = req;
  const json = await req.json();
  const businessId = req.businessFromBody(json);
  const body = requireObject(json.body, 'body');
  const cardJson = requireObject(body.card, 'body.card');
  const input = parseCardInput(cardJson, { cvvRequired: false });
  const customer = optionalObject(body.customer, 'body.customer');
  if (customer !== undefined && nestingDepth(customer) > MAX_CUSTOMER_DEPTH) {
    throw invalidValue('body.customer', `Nested more than ${MAX_CUSTOMER_DEPTH} levels deep.`);
  }
  const customerId = customer === undefined ? undefined : optionalIdentifier(customer.customerId, 'body.customer.customerId', { max: 100 });
  const code = trackingCode(body.trackingCode, 'body.trackingCode', false);
  let brandId: number | undefined;
  if (!absent(body.brandId)) {
    brandId = requireInteger(body.brandId, 'body.brandId');
    if (brandById(brandId)?.kind !== 'card') throw invalidValue('body.brandId', 'Expected the id of a card brand; see docs/api.md.');
  }

  const token = await sandbox.services.tokens.create({ businessId, card: input, brandId, trackingCode: code, customer, customerId });
  return envelope(sandbox, RESULTS.ok, tokenCreatedView(token));
}

function getToken(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  // Another business's token is a 404, exactly like one that does not exist.
  return envelope(req.sandbox, RESULTS.ok, tokenView(req.sandbox.services.tokens.get(businessId, req.params.token!)));
}

export const tokenRoutes: Route[] = [
  { route: 'tokens.create', handler: createToken },
  { route: 'tokens.get', handler: getToken },
];
