; kernplug-barrier-fission, BarrierFission.cpp's emitRegion: a split region of a kernel that
; reads no threadIdx.y or .z also gets a copy of its parts without the loops over y and z,
; run when the launch's range is one row (y and z each one value: the usual 1D block),
; decided once in the entry (%kp.one.row) and branched on at the region's start. The copy
; runs the same threads in the same order (the loops it leaves out run once), stores the
; row's y and z as the loops would, and its blocks sit at the entry's end.
; - round: a Hillis-Steele round, split at `t u< k`: both copies, the remark says so.
; - rows_2d: reads threadIdx.y (a 2D tile's rows): no copy, the loops over y and z only.
; - no_split: reads only x, but no branch on threadIdx.x splits its loop: no copy.
; - looped: reads only x and splits, but the region has a loop of its own (enough work per
;   thread that the setup matters little, as the histogram's rounds): no copy.
; RUN: %opt -load-pass-plugin %kernplug_passes -passes=kernplug-barrier-fission -pass-remarks=kernplug -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: kernel 'round': 1 thread loops split where a branch on threadIdx.x changes;{{.*}}; 1 split thread loops also built without the loops over y and z, for blocks of one row; 3 regions branch straight to the next, not through the dispatch{{$}}
; REMARK-NOT: kernel 'rows_2d': {{.*}}one row
; REMARK-NOT: kernel 'no_split': {{.*}}one row
; REMARK: kernel 'looped': 1 thread loops split
; REMARK-NOT: one row
; REMARK: kernel 'looped': barriers split

; CHECK-LABEL: define internal void @round.kp.cpu_block(
; The range's begin and end in y (i32 0, i32 {0,1}, i32 1) and z (i32 2).
; CHECK: ptr %range, i32 0, i32 0, i32 1
; CHECK-NEXT: %[[B1:[0-9]+]] = load i32
; CHECK-NEXT: ptr %range, i32 0, i32 1, i32 1
; CHECK-NEXT: %[[E1:[0-9]+]] = load i32
; CHECK: ptr %range, i32 0, i32 0, i32 2
; CHECK-NEXT: %[[B2:[0-9]+]] = load i32
; CHECK-NEXT: ptr %range, i32 0, i32 1, i32 2
; CHECK-NEXT: %[[E2:[0-9]+]] = load i32
; CHECK: %[[Y1:[0-9]+]] = add i32 %[[B1]], 1
; CHECK-NEXT: %[[YONE:[0-9]+]] = icmp eq i32 %[[Y1]], %[[E1]]
; CHECK-NEXT: %[[Z1:[0-9]+]] = add i32 %[[B2]], 1
; CHECK-NEXT: %[[ZONE:[0-9]+]] = icmp eq i32 %[[Z1]], %[[E2]]
; CHECK-NEXT: %kp.one.row = and i1 %[[YONE]], %[[ZONE]]
; CHECK: blocks:
; CHECK: kp.region1:
; CHECK: br i1 %kp.one.row, label %[[ROW:kp.onerow[0-9]*]], label %kp.rows
; The general copy: z over y over the two parts.
; CHECK: kp.rows:
; CHECK-NEXT: br label %loop.z
; CHECK: loop.y{{[0-9]*}}:
; CHECK: %kp.x.hi = trunc i64
; CHECK: br label %loop.x{{[0-9]+}}, !llvm.loop
; CHECK: br label %loop.x{{[0-9]+}}, !llvm.loop
; CHECK: kp.region2:
; The one-row copy, at the end: y and z stored once, no loops over them, the same two parts.
; CHECK: [[ROW]]:
; CHECK-NEXT: getelementptr inbounds [13 x i32], ptr %kp.idx, i32 0, i32 2
; CHECK-NEXT: store i32 %[[B2]], ptr %{{[0-9]+}}
; CHECK-NEXT: getelementptr inbounds [13 x i32], ptr %kp.idx, i32 0, i32 1
; CHECK-NEXT: store i32 %[[B1]], ptr %{{[0-9]+}}
; CHECK-NOT: loop.y
; CHECK-NOT: loop.z
; CHECK: %[[HI:kp.x.hi[0-9]+]] = trunc i64
; CHECK: br label %loop.x{{[0-9]+}}, !llvm.loop
; CHECK: phi i32 [ %[[HI]], %done.x{{[0-9]*}} ]
; CHECK: sub nuw nsw i32
; CHECK: br label %loop.x{{[0-9]+}}, !llvm.loop
; CHECK-NOT: loop.y
; CHECK-NOT: loop.z
; CHECK-LABEL: define internal void @rows_2d.kp.cpu_block(
; CHECK-NOT: kp.one.row
; CHECK-NOT: kp.onerow
; CHECK-LABEL: define internal void @no_split.kp.cpu_block(
; CHECK-NOT: kp.onerow
; CHECK-LABEL: define internal void @looped.kp.cpu_block(
; CHECK: %kp.one.row = and i1
; CHECK-NOT: kp.onerow
; CHECK: attributes

@buf = internal global [2 x [256 x i32]] zeroinitializer

define void @round() {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  %k = lshr i32 %n, 2
  call void @kp_dev_syncthreads()
  %ti = zext i32 %t to i64
  %src = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 0, i64 %ti
  %dst = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 1, i64 %ti
  %v = load i32, ptr %src, align 4
  %lt = icmp ult i32 %t, %k
  br i1 %lt, label %copy, label %add
copy:
  store i32 %v, ptr %dst, align 4
  br label %done
add:
  %d = sub i32 %t, %k
  %di = zext i32 %d to i64
  %q = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 0, i64 %di
  %w = load i32, ptr %q, align 4
  %s = add nsw i32 %v, %w
  store i32 %s, ptr %dst, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

define void @rows_2d() {
entry:
  %t = call i32 @kp_dev_tid_x()
  %y = call i32 @kp_dev_tid_y()
  %n = call i32 @kp_dev_ntid_x()
  %k = lshr i32 %n, 2
  call void @kp_dev_syncthreads()
  %yi = zext i32 %y to i64
  %lt = icmp ult i32 %t, %k
  br i1 %lt, label %done, label %add
add:
  %ti = zext i32 %t to i64
  %dst = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 %yi, i64 %ti
  store i32 1, ptr %dst, align 4
  br label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

define void @no_split() {
entry:
  %t = call i32 @kp_dev_tid_x()
  call void @kp_dev_syncthreads()
  %ti = zext i32 %t to i64
  %dst = getelementptr inbounds [2 x [256 x i32]], ptr @buf, i64 0, i64 1, i64 %ti
  store i32 2, ptr %dst, align 4
  call void @kp_dev_syncthreads()
  ret void
}

define void @looped(ptr %s, i32 %m) {
entry:
  %t = call i32 @kp_dev_tid_x()
  %n = call i32 @kp_dev_ntid_x()
  %k = lshr i32 %n, 2
  call void @kp_dev_syncthreads()
  %lt = icmp ult i32 %t, %k
  br i1 %lt, label %done, label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %j2, %loop ]
  %ji = zext i32 %j to i64
  %p = getelementptr inbounds i32, ptr %s, i64 %ji
  store i32 %t, ptr %p, align 4
  %j2 = add i32 %j, 1
  %more = icmp slt i32 %j2, %m
  br i1 %more, label %loop, label %done
done:
  call void @kp_dev_syncthreads()
  ret void
}

declare i32 @kp_dev_tid_x() nounwind willreturn memory(none)
declare i32 @kp_dev_tid_y() nounwind willreturn memory(none)
declare i32 @kp_dev_ntid_x() nounwind willreturn memory(none)
declare void @kp_dev_syncthreads() convergent nounwind

!kernplug.kernels = !{!0, !1, !2, !3}
!0 = !{!"round", ptr @round, ptr @round, i1 false, !"", i64 0, !"in.c", i32 1, !{}, i32 2, !""}
!1 = !{!"rows_2d", ptr @rows_2d, ptr @rows_2d, i1 false, !"", i64 0, !"in.c", i32 2, !{}, i32 2, !""}
!2 = !{!"no_split", ptr @no_split, ptr @no_split, i1 false, !"", i64 0, !"in.c", i32 3, !{}, i32 2, !""}
!3 = !{!"looped", ptr @looped, ptr @looped, i1 false, !"", i64 0, !"in.c", i32 4, !{}, i32 2, !""}
