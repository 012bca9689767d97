/* tests/unit/under_asan.h: UNDER_ASAN, 1 when this file is built with
 * AddressSanitizer (make test-sanitize), whose shadow memory rules out the
 * tests that cap the address space. */
#ifndef PRIMLAB_TESTS_UNDER_ASAN_H
#define PRIMLAB_TESTS_UNDER_ASAN_H
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif
#endif
