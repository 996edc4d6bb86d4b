<?php

declare(strict_types=1);

namespace PaylinkExample\Tests;

/** paylink's admin API (snapshots), at PAYLINK_ADMIN_URL: the sandbox's own loopback address. */
final class SandboxAdmin
{
    public static function post(string $path, array $body = []): array
    {
        $base = getenv('PAYLINK_ADMIN_URL');
        if ($base === false || $base === '') {
            throw new \RuntimeException('PAYLINK_ADMIN_URL is not set: the sandbox address for its admin API');
        }
        $context = stream_context_create(['http' => [
            'method' => 'POST',
            'header' => "Content-Type: application/json\r\n",
            'content' => json_encode((object) $body),
            'ignore_errors' => true,
        ]]);
        $text = file_get_contents($base . $path, false, $context);
        $answer = json_decode((string) $text, true);
        if (!is_array($answer) || ($answer['result'] ?? null) !== 0) {
            throw new \RuntimeException("paylink admin $path failed: $text");
        }
        return $answer;
    }
}
