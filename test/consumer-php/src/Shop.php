<?php

declare(strict_types=1);

namespace PaylinkExample;

use GuzzleHttp\Client;

/**
 * A tiny shop's payment code as it was written for the provider: its staging API hard-coded, Guzzle with
 * its defaults. Nothing here knows about paylink; the tests run it through `paylink env`.
 */
final class Shop
{
    private const API = 'https://stagconnect.acehubpaymentservices.com/gateway/v3/';

    private Client $http;

    public function __construct(private string $businessId = 'php-shop', ?Client $http = null)
    {
        $this->http = $http ?? new Client(['base_uri' => self::API, 'http_errors' => false, 'timeout' => 10]);
    }

    /** Starts the checkout of an order: a payment link; answers its id and the page to send the customer to. */
    public function checkout(string $orderId, float $amount, string $returnUrl): array
    {
        $answer = $this->call('POST', 'paymentlinks', [
            'header' => ['businessId' => $this->businessId],
            'body' => [
                'transaction' => ['amount' => $amount, 'currencyCode' => 'EUR', 'authorizationMode' => 'payment', 'trackingCode' => $orderId],
                'link' => ['duration' => 'P1D', 'brandIds' => [1010, 1020], 'returnUrl' => $returnUrl],
            ],
        ]);
        if ($answer['result'] !== 0) {
            throw new \RuntimeException('checkout refused: ' . $answer['description']);
        }
        return ['linkId' => $answer['body']['link']['linkId'], 'url' => $answer['body']['link']['redirect']['url']];
    }

    /** The status of a checkout's link, or null when the provider does not know it. */
    public function checkoutStatus(string $linkId): ?string
    {
        $answer = $this->call('GET', 'paymentlinks/' . rawurlencode($linkId) . '?businessId=' . rawurlencode($this->businessId));
        return $answer['result'] === 0 ? $answer['body']['link']['status'] : null;
    }

    /** Charges a card at once; answers whether it was approved and the provider's result code. */
    public function chargeCard(string $orderId, float $amount, string $number): array
    {
        $answer = $this->call('POST', 'payments', [
            'action' => 'payment',
            'header' => ['businessId' => $this->businessId],
            'body' => [
                'transaction' => ['amount' => $amount, 'currencyCode' => 'EUR', 'brandId' => 1010, 'trackingCode' => $orderId],
                'card' => ['holderName' => 'Test Shopper', 'number' => $number, 'cvv' => '123', 'expiryMonth' => '12', 'expiryYear' => (string) ((int) date('Y') + 3)],
            ],
        ]);
        return ['approved' => $answer['result'] === 0, 'result' => $answer['result'], 'paymentId' => $answer['body']['transaction']['id'] ?? null];
    }

    private function call(string $method, string $path, ?array $body = null): array
    {
        $options = $body === null ? [] : ['json' => $body];
        $response = $this->http->request($method, $path, $options);
        $decoded = json_decode((string) $response->getBody(), true);
        if (!is_array($decoded)) {
            throw new \RuntimeException('not the provider\'s answer: HTTP ' . $response->getStatusCode());
        }
        return $decoded;
    }
}
