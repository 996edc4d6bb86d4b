<?php
// Legacy integration code as a shop has it: the provider's staging host hard-coded, plain PHP curl, no
// setting for another address or certificate. paylink's test runs it unchanged with only `paylink env`.
const API = 'https://stagconnect.acehubpaymentservices.com/gateway/v3';
const BUSINESS = 'legacy-php-shop';

function call(string $method, string $path, ?array $body = null): array
{
    $ch = curl_init(API . $path);
    curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
    curl_setopt($ch, CURLOPT_CUSTOMREQUEST, $method);
    curl_setopt($ch, CURLOPT_USERPWD, 'legacy:secret');
    if ($body !== null) {
        curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($body));
        curl_setopt($ch, CURLOPT_HTTPHEADER, ['Content-Type: application/json']);
    }
    $text = curl_exec($ch);
    if ($text === false) {
        fwrite(STDERR, 'curl failed: ' . curl_error($ch) . "\n");
        exit(2);
    }
    $status = curl_getinfo($ch, CURLINFO_RESPONSE_CODE);
    return ['status' => $status, 'body' => json_decode($text, true)];
}

$code = 'php-' . bin2hex(random_bytes(6));
$link = call('POST', '/paymentlinks', [
    'header' => ['businessId' => BUSINESS],
    'body' => [
        'transaction' => ['amount' => 19.95, 'currencyCode' => 'EUR', 'authorizationMode' => 'payment', 'trackingCode' => $code],
        'link' => ['duration' => 'P1D', 'brandIds' => [1010], 'returnUrl' => 'https://shop.example/return'],
    ],
]);
$linkId = $link['body']['body']['link']['linkId'];
$read = call('GET', '/paymentlinks/' . $linkId . '?businessId=' . BUSINESS);
$payment = call('POST', '/payments', [
    'action' => 'payment',
    'header' => ['businessId' => BUSINESS],
    'body' => [
        'transaction' => ['amount' => 19.95, 'currencyCode' => 'EUR', 'brandId' => 1010, 'trackingCode' => $code . '-pay'],
        'card' => ['holderName' => 'Legacy Shopper', 'number' => '4111111111111111', 'cvv' => '123', 'expiryMonth' => '12', 'expiryYear' => '2035'],
    ],
]);
echo json_encode([
    'link' => ['status' => $link['status'], 'result' => $link['body']['result'], 'id' => $linkId, 'url' => $link['body']['body']['link']['redirect']['url']],
    'read' => ['status' => $read['status'], 'result' => $read['body']['result'], 'linkStatus' => $read['body']['body']['link']['status']],
    'payment' => ['status' => $payment['status'], 'result' => $payment['body']['result'], 'id' => $payment['body']['body']['transaction']['id'] ?? null],
]), "\n";
