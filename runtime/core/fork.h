/* fork.h — the runtime's pthread_atfork handlers (fork.c) and each module's part in them. */
#ifndef KP_FORK_H
#define KP_FORK_H

/* The phases of pthread_atfork: before the fork (take the lock, so that the child's copy of
 * what it guards is whole), then in the parent (release it) or in the child (make it anew:
 * the child is single-threaded and a mutex "held" by the forking thread is not its own). */
typedef enum kp_fork_phase { KP_FORK_PREPARE, KP_FORK_PARENT, KP_FORK_CHILD } kp_fork_phase;

/* Registers the runtime's fork handlers (once; backend.c calls it on first use). */
void kp_fork_install(void);

/* Each module's part (every lock taken here is a leaf: none is held while taking another).
 * The backend in use takes part through its fork_locks and after_fork_child hooks
 * (backend/backend.h). */
void kp_alloc_table_fork(kp_fork_phase phase);
void kp_memory_fork(kp_fork_phase phase);
void kp_stream_fork(kp_fork_phase phase);
void kp_registry_fork(kp_fork_phase phase); /* the registry's lock */

#endif /* KP_FORK_H */
