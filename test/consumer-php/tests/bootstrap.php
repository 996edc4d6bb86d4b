<?php

declare(strict_types=1);

require_once 'GuzzleHttp/autoload.php';
require_once __DIR__ . '/../src/Shop.php';
require_once __DIR__ . '/SandboxAdmin.php';

// One clean state to go back to before each test (paylink's admin API, on loopback, not through the proxy).
\PaylinkExample\Tests\SandboxAdmin::post('/__sandbox/snapshots', ['name' => 'php-shop-clean']);
