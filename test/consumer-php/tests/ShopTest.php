<?php

declare(strict_types=1);

namespace PaylinkExample\Tests;

use PaylinkExample\Shop;
use PHPUnit\Framework\TestCase;

final class ShopTest extends TestCase
{
    private static ?string $linkOfEarlierTest = null;

    protected function setUp(): void
    {
        SandboxAdmin::post('/__sandbox/snapshots/php-shop-clean/restore');
    }

    public function testCheckoutSendsTheCustomerToTheProvidersPaymentPage(): void
    {
        $checkout = (new Shop())->checkout('order-1001', 25.00, 'https://shop.example/thanks');
        self::$linkOfEarlierTest = $checkout['linkId'];
        self::assertSame('https://stag.checkout-web.dta.payvision.app/paymentlinks/' . $checkout['linkId'], $checkout['url']);
        self::assertSame('READY', (new Shop())->checkoutStatus($checkout['linkId']));
    }

    public function testEachTestStartsFromTheCleanSnapshot(): void
    {
        self::assertNotNull(self::$linkOfEarlierTest);
        self::assertNull((new Shop())->checkoutStatus(self::$linkOfEarlierTest), 'the link of the earlier test is gone after the restore');
    }

    public function testAnApprovedCardIsCharged(): void
    {
        $charge = (new Shop())->chargeCard('order-1002', 10.00, '4111111111111111');
        self::assertTrue($charge['approved']);
        self::assertNotNull($charge['paymentId']);
    }

    public function testADeclinedCardIsNotCharged(): void
    {
        $charge = (new Shop())->chargeCard('order-1003', 10.00, '4000000000000002');
        self::assertFalse($charge['approved']);
        self::assertNotSame(0, $charge['result']);
    }
}
