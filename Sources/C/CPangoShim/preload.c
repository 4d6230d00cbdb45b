#include "CPangoShim.h"

#include <fontconfig/fontconfig.h>
#include <pthread.h>

// fontconfig's FcInit parses its XML configuration and maps the font caches: ~6 ms, paid by the
// first font lookup. Started at launch on another thread, it overlaps with the program's own
// start-up. pango would run FcInit on its own thread too, but only once a font map exists, and
// two loads running at once would each do the whole work (fontconfig publishes whichever
// finishes first), so the first font map waits for this one instead.
static pthread_mutex_t preload_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_t preload_thread;
static int preload_running;

void SPFontconfigLoad(void) { FcInit(); }

static void *preload(void *unused) {
    (void)unused;
    SPFontconfigLoad();
    return NULL;
}

void SPFontconfigPreloadStart(void) {
    pthread_mutex_lock(&preload_mutex);
    if (!preload_running && pthread_create(&preload_thread, NULL, preload, NULL) == 0) preload_running = 1;
    pthread_mutex_unlock(&preload_mutex);
}

void SPFontconfigPreloadWait(void) {
    pthread_mutex_lock(&preload_mutex);
    if (preload_running) {
        pthread_join(preload_thread, NULL);
        preload_running = 0;
    }
    pthread_mutex_unlock(&preload_mutex);
}
