#include "SPShims.h"

#include <fontconfig/fontconfig.h>
#include <pthread.h>

// fontconfig's FcInit parses its XML configuration and maps the font caches: ~6 ms, paid by the
// first font lookup. Run early on another thread, it overlaps with the program's own start-up.
// pango would run FcInit on its own thread too, but only once a font map exists, and two loads
// running at once would each do the whole work (fontconfig publishes whichever finishes first),
// so the first font map waits for this one instead.
//
// The load is promised before it runs: a start-up thread may have other work to do first, and a
// font map made meanwhile must wait for the promised load rather than start a second one.
static pthread_mutex_t preload_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t preload_done = PTHREAD_COND_INITIALIZER;
static enum { PRELOAD_NONE, PRELOAD_PROMISED, PRELOAD_DONE } preload_state = PRELOAD_NONE;

void SPFontconfigPreloadPromise(void) {
    pthread_mutex_lock(&preload_mutex);
    if (preload_state == PRELOAD_NONE) preload_state = PRELOAD_PROMISED;
    pthread_mutex_unlock(&preload_mutex);
}

void SPFontconfigPreloadRun(void) {
    FcInit();
    pthread_mutex_lock(&preload_mutex);
    preload_state = PRELOAD_DONE;
    pthread_cond_broadcast(&preload_done);
    pthread_mutex_unlock(&preload_mutex);
}

static void *preload(void *unused) {
    (void)unused;
    SPFontconfigPreloadRun();
    return NULL;
}

void SPFontconfigPreloadStart(void) {
    pthread_mutex_lock(&preload_mutex);
    int start = preload_state == PRELOAD_NONE;
    if (start) preload_state = PRELOAD_PROMISED;
    pthread_mutex_unlock(&preload_mutex);
    if (!start) return;
    pthread_t thread;
    if (pthread_create(&thread, NULL, preload, NULL) == 0) {
        pthread_detach(thread);
    } else {
        // No thread: the promise is withdrawn and the first font map loads fontconfig itself.
        pthread_mutex_lock(&preload_mutex);
        preload_state = PRELOAD_NONE;
        pthread_cond_broadcast(&preload_done);
        pthread_mutex_unlock(&preload_mutex);
    }
}

void SPFontconfigPreloadWait(void) {
    pthread_mutex_lock(&preload_mutex);
    while (preload_state == PRELOAD_PROMISED) pthread_cond_wait(&preload_done, &preload_mutex);
    pthread_mutex_unlock(&preload_mutex);
}
