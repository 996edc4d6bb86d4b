<?php
// A shop's checkout as written for the provider: the staging host hard-coded. In compose.yaml that name is
// a network alias of the paylink container, so this creates a payment link in the sandbox.
$ch = curl_init('https://stagconnect.acehubpaymentservices.com/gateway/v3/paymentlinks');
curl_setopt_array($ch, [
    CURLOPT_RETURNTRANSFER => true,
    CURLOPT_POST => true,
    CURLOPT_HTTPHEADER => ['Content-Type: application/json'],
    CURLOPT_POSTFIELDS => json_encode([
        'header' => ['businessId' => 'compose-shop'],
        'body' => [
            'transaction' => ['amount' => 12.5, 'currencyCode' => 'EUR', 'authorizationMode' => 'payment', 'trackingCode' => 'compose-' . time()],
            'link' => ['duration' => 'P1D', 'brandIds' => [1010], 'returnUrl' => 'https://shop.example/return'],
        ],
    ]),
]);
$text = curl_exec($ch);
if ($text === false) {
    fwrite(STDERR, 'checkout failed: ' . curl_error($ch) . "\n");
    exit(1);
}
$answer = json_decode($text, true);
echo 'Pay at: ', $answer['body']['link']['redirect']['url'], "\n";
